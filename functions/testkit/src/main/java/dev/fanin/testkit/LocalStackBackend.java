package dev.fanin.testkit;

import java.net.URI;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack in a container started by Testcontainers. Only loaded once {@link DockerEngine#answers()} said yes.
 * The image is pinned; {@code FANIN_LOCALSTACK_IMAGE} overrides it.
 */
final class LocalStackBackend implements Backend {

    static final String DEFAULT_IMAGE = "localstack/localstack:4.4";

    private final LocalStackContainer container;

    private LocalStackBackend(LocalStackContainer container) {
        this.container = container;
    }

    static LocalStackBackend start(String image) {
        LocalStackContainer container = new LocalStackContainer(
                DockerImageName.parse(image).asCompatibleSubstituteFor("localstack/localstack"));
        container.start();
        return new LocalStackBackend(container);
    }

    @Override
    public URI endpoint() {
        return container.getEndpoint();
    }

    @Override
    public String kind() {
        return "localstack";
    }

    /** LocalStack's community edition has no reset that is known to wipe every service; tests use fresh names. */
    @Override
    public boolean reset() {
        return false;
    }

    @Override
    public void close() {
        container.stop();
    }
}
