package dev.fanin.aws;

import java.time.Duration;

/** Waits between retries; injected so that tests run without real sleeps and can see the backoff. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration);

    /** Sleeps on the current thread; an interrupt ends the wait early and keeps the interrupt flag. */
    Sleeper THREAD = duration -> {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    };
}
