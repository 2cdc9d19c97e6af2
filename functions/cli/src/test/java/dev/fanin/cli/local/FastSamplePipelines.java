package dev.fanin.cli.local;

import dev.fanin.core.config.ConfigLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bundled pipelines with the alert sessions' durations shortened (gap 5s, out-of-orderness 2s, idle after 3s,
 * corrections after 1s), so a test sees every sample job fire within seconds instead of the ~70 s a 30 s session
 * gap takes to close by watermark. Everything else, names included, is the bundled file, so the sample traffic fits.
 */
public final class FastSamplePipelines {

    private FastSamplePipelines() {
    }

    public static Path write(Path dir) {
        String bundled;
        try (InputStream in = FastSamplePipelines.class.getClassLoader().getResourceAsStream(ConfigLoader.BUNDLED_RESOURCE)) {
            bundled = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String fast = replaceEvery(bundled, "      gap: 30s\n", "      gap: 5s\n");
        fast = replaceEvery(fast, "      outOfOrderness: 10s\n", "      outOfOrderness: 2s\n");
        fast = replaceEvery(fast, "      idleAfter: 30s\n", "      idleAfter: 3s\n");
        fast = replaceEvery(fast, "    allowedLateness: 2m\n", "    allowedLateness: 2m\n    late: {tooLate: side-output, correctionDelay: 1s}\n");
        try {
            Path file = dir.resolve("fast-pipelines.yaml");
            Files.writeString(file, fast);
            ConfigLoader.load(file); // fails here, naming the problem, if the bundled file changed shape
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String replaceEvery(String text, String from, String to) {
        if (!text.contains(from)) {
            throw new IllegalStateException("the bundled pipelines no longer contain \"" + from.strip() + "\"; update this test");
        }
        return text.replace(from, to);
    }
}
