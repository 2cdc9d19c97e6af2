package dev.fanin.cli.replay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One replay's settings.
 *
 * @param prefix     resource name prefix on the endpoint; a fresh unique one when empty
 * @param redeliverWithin duplicates injected by {@code redeliver} arrive at a random moment within this long after the
 *                   original delivery; zero (the default) means right after it, at the same simulated instant
 * @param resume     continue the replay whose state is in {@code out} (after its process died), reusing its resources
 * @param outages    consumer outages of the input queue ({@link Outages})
 * @param backlogShuffle how long the delivery of an outage's backlog takes, in random order
 */
record ReplayOptions(Path config, Path trace, Path out, Optional<Path> html, double redeliver, Duration redeliverWithin,
                     double crashRate, long seed,
                     Optional<String> prefix, boolean resume, Path template, List<Outages.Spec> outages, Duration backlogShuffle) {

    ReplayOptions(Path config, Path trace, Path out, Optional<Path> html, double redeliver, Duration redeliverWithin,
                  double crashRate, long seed, Optional<String> prefix, boolean resume, Path template) {
        this(config, trace, out, html, redeliver, redeliverWithin, crashRate, seed, prefix, resume, template, List.of(), Duration.ZERO);
    }

    ReplayOptions {
        if (redeliver < 0 || redeliver > 1) {
            throw new IllegalArgumentException("--redeliver must be a probability in [0, 1], was " + redeliver);
        }
        if (redeliverWithin.isNegative()) {
            throw new IllegalArgumentException("--redeliver-within must not be negative, was " + redeliverWithin);
        }
        outages = List.copyOf(outages);
        if (backlogShuffle.isNegative()) {
            throw new IllegalArgumentException("--backlog-shuffle must not be negative, was " + backlogShuffle);
        }
        if (crashRate < 0 || crashRate >= 1) {
            throw new IllegalArgumentException("--crash-rate must be a probability in [0, 1), was " + crashRate);
        }
    }
}
