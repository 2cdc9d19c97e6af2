package dev.fanin.cli.replay;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One replay's settings.
 *
 * @param prefix     resource name prefix on the endpoint; a fresh unique one when empty
 * @param resume     continue the replay whose state is in {@code out} (after its process died), reusing its resources
 */
record ReplayOptions(Path config, Path trace, Path out, Optional<Path> html, double redeliver, double crashRate, long seed,
                     Optional<String> prefix, boolean resume, Path template) {

    ReplayOptions {
        if (redeliver < 0 || redeliver > 1) {
            throw new IllegalArgumentException("--redeliver must be a probability in [0, 1], was " + redeliver);
        }
        if (crashRate < 0 || crashRate >= 1) {
            throw new IllegalArgumentException("--crash-rate must be a probability in [0, 1), was " + crashRate);
        }
    }
}
