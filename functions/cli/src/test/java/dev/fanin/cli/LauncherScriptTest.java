package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ./fanin script, run from another directory, on the test classpath (FANIN_CLASSPATH): rebuilding the module
 * jars from inside the suite would rewrite the jars this JVM and its siblings are reading.
 */
class LauncherScriptTest {

    /** Surefire runs in the module directory. */
    static final Path SCRIPT = Path.of("../../fanin").toAbsolutePath().normalize();

    @TempDir
    Path elsewhere;

    @Test
    void validateRunsFromAnyDirectory() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(SCRIPT.toString(), "validate")
                .directory(elsewhere.toFile());
        builder.environment().put("FANIN_CLASSPATH", System.getProperty("java.class.path"));
        Process process = builder
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        boolean finished = process.waitFor(10, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(finished).as("./fanin validate finished within 10 minutes").isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(out).startsWith("OK: ").contains("alert-storm");
    }
}
