package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.cli.FaninCli;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of {@code fanin replay}: every mistake is named before any resource is created. */
class ReplayCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) { }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new FaninCli(FaninCli.commands()).run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void missingTraceIsAUsageError() {
        Run r = run("replay", "--config", ReplayRun.CONFIG.toString(), "--out", dir.toString());
        assertThat(r.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(r.err()).contains("--trace FILE is required");
    }

    @Test
    void probabilitiesAreChecked() {
        Run r = run("replay", "--config", ReplayRun.CONFIG.toString(), "--trace", ReplayRun.trace("alert-storm").toString(),
                "--out", dir.toString(), "--crash-rate", "1");
        assertThat(r.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(r.err()).contains("--crash-rate must be below 1");
        Run p = run("replay", "--config", ReplayRun.CONFIG.toString(), "--trace", ReplayRun.trace("alert-storm").toString(),
                "--out", dir.toString(), "--redeliver", "lots");
        assertThat(p.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(p.err()).contains("Invalid value for option '--redeliver': 'lots' is not a double");
        Run q = run("replay", "--config", ReplayRun.CONFIG.toString(), "--trace", ReplayRun.trace("alert-storm").toString(),
                "--out", dir.toString(), "--redeliver", "1.5");
        assertThat(q.err()).contains("--redeliver P must be a probability between 0 and 1, was 1.5");
    }

    @Test
    void aMalformedTraceIsReportedLineByLineWithExit1() throws Exception {
        Path trace = Files.writeString(dir.resolve("t.jsonl"), "{\"at\":\"soon\",\"body\":1}\n");
        Run r = run("replay", "--config", ReplayRun.CONFIG.toString(), "--trace", trace.toString(), "--out", dir.resolve("o").toString());
        assertThat(r.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(r.out()).contains("t.jsonl:1: \"at\" is neither an ISO-8601 instant nor an offset");
    }

    @Test
    void helpListsTheFlags() {
        Run r = run("replay", "--help");
        assertThat(r.out()).contains("--crash-rate=P", "--redeliver=P", "--resume", "--html=FILE");
    }
}
