package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of a command-line tool the tests need (cfn-lint, python3 with aws-sam-translator, bash), its exit code and
 * output. A tool that is missing or hangs fails the test with what to install or what hung.
 */
record ToolRun(int exitCode, String output, String errors) {

    static ToolRun of(List<String> command, Path directory, Duration timeout) {
        return of(command, directory, timeout, "");
    }

    /** @param input what the tool reads on its standard input */
    static ToolRun of(List<String> command, Path directory, Duration timeout, String input) {
        Process process;
        Path errorFile;
        try {
            errorFile = Files.createTempFile("fanin-tool-", ".err");
            process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectError(errorFile.toFile()).start();
        } catch (IOException missing) {
            return fail(command.get(0) + " is not installed or not on PATH (" + missing.getMessage() + "). It is part of"
                    + " this machine kind and of CI (.ci/run installs cfn-lint, which brings aws-sam-translator)");
        }
        try {
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return fail(String.join(" ", command) + " did not finish within " + timeout);
            }
            String errors = Files.readString(errorFile);
            Files.deleteIfExists(errorFile);
            return new ToolRun(process.exitValue(), output, errors);
        } catch (IOException | InterruptedException broken) {
            process.destroyForcibly();
            return fail("running " + String.join(" ", command) + " failed: " + broken);
        }
    }

    /** This run's output, failing the test with everything the tool said when it did not exit 0. */
    String succeeded() {
        if (exitCode != 0) {
            fail("exited " + exitCode + ":\n" + output + "\n" + errors);
        }
        return output;
    }
}
