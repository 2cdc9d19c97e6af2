package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/** Lambda contexts for handler tests: the runners' {@link InProcessContext} on a stopped clock, so the remaining time
 * is exactly what the test says. */
final class TestContexts {

    private static final Clock STOPPED = Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC);

    private TestContexts() {
    }

    /** An invocation with 30 s left. */
    static Context invocation(String requestId) {
        return invocation(requestId, 30_000);
    }

    static Context invocation(String requestId, int remainingMillis) {
        return new InProcessContext("fanin-test", requestId, "test", Duration.ofMillis(remainingMillis), STOPPED);
    }
}
