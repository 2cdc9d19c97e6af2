package dev.fanin.testkit;

import java.net.URI;
import java.time.Duration;

/** An endpoint the user runs themselves, named by {@code AWS_ENDPOINT_URL}; nothing to start or stop. */
final class EnvironmentEndpoint implements Backend {

    private final URI endpoint;

    EnvironmentEndpoint(URI endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public String kind() {
        return "env";
    }

    /** Works when the user's endpoint happens to be a moto server; any other endpoint keeps its state. */
    @Override
    public boolean reset() {
        return MotoReset.reset(endpoint, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
