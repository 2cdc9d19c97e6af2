package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExplainCommandTest {

    /** Surefire runs in the module directory. */
    static final Path EXAMPLE = Path.of("../../docs/EXPLAIN-EXAMPLE.md");

    @TempDir
    Path dir;

    /** The metrics section names only metrics the functions write, with the dimensions they write them with. */
    @Test
    void theMetricsSectionNamesWhatTheFunctionsWrite() throws Exception {
        java.util.Set<String> written = new java.util.TreeSet<>();
        for (java.lang.reflect.Field f : dev.fanin.core.service.MetricNames.class.getFields()) {
            written.add((String) f.get(null));
        }
        String doc = Files.readString(EXAMPLE);
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("\\| `(\\w+)` \\| (yes)? \\| [^|]* \\|").matcher(doc);
        int rows = 0;
        while (row.find()) {
            rows++;
            assertThat(written).as("explain names metric " + row.group(1)).contains(row.group(1));
            assertThat(row.group(2) != null).as(row.group(1) + " per pipeline")
                    .isEqualTo(dev.fanin.lambda.PowertoolsMetrics.PIPELINE_GAUGES.contains(row.group(1)));
        }
        assertThat(rows).isGreaterThan(40);
    }

    @Test
    void explainExampleDocIsTheOutputForTheBundledConfiguration() throws IOException {
        CliRun run = CliRun.run("explain");

        assertThat(run.exit()).isZero();
        assertThat(Files.readString(EXAMPLE, StandardCharsets.UTF_8))
                .as("docs/EXPLAIN-EXAMPLE.md is stale; regenerate it with: ./fanin explain > docs/EXPLAIN-EXAMPLE.md")
                .isEqualTo(run.out());
    }

    @Test
    void everyNumberComesFromTheConfiguration() throws IOException {
        Path file = write("""
                version: 1
                pipelines:
                  - name: storms
                    key: [$.service]
                    window: {type: session, gap: 47s}
                    triggers: {maxLifetime: 17m, count: 333}
                    watermark: {outOfOrderness: 13s, idleAfter: 29s}
                    allowedLateness: 3m
                    late: {tooLate: drop, correctionDelay: 7s}
                    bounds: {maxEventsPerWindow: 4444, maxOpenWindows: 555, maxKeyLength: 66, onOverflow: side-output}
                    aggregations:
                      - {name: resources, type: distinct-values, path: $.resource, cap: 88}
                    retention: 9d
                """);

        CliRun run = CliRun.run("explain", "--config", file.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains(
                "**Session window, gap `47s`.**",
                "watermark = maxEventTime - 13s + max(0, now - lastArrival - 29s)",
                "A session closes about 1m (gap `47s` + out-of-orderness `13s`)",
                "at most 1m 29s (+ idleAfter `29s`) after the last arrival",
                "`COUNT`: the window holds 333 distinct events (332 no, 333 yes).",
                "creation + `17m`",
                "end + 3m - 1ms is late, end + 3m is too late",
                "counted and dropped (`late.tooLate: drop`)",
                "events arriving within `7s`",
                "at most 66 UTF-8 bytes",
                "further ones go to the side output (`onOverflow: side-output`)",
                "at most 555 windows of this pipeline admitted and not yet closed for the first time",
                "`resources` keeps 88 values",
                "= creation + 17m + 3m + 7s + lease + 9d",
                "= creation + 9d 20m 7s + lease",
                "here creation + `17m`, 1020 s",
                "| `SecondsPastHardDeadline` | yes |  | how far past its hard deadline (creation + `17m`)",
                "late events: `correction`, `dropped`");
        assertThat(run.out()).doesNotContain("`SIZE_LIMIT`", "`EXPECTED_COMPLETE`", "`SENTINEL`:");
    }

    @Test
    void tumblingWithAnExpectedCountAndHoldExplainsTheDeadlineAndTheHold() throws IOException {
        Path file = write("""
                version: 1
                pipelines:
                  - name: runs
                    key: [$.jobId]
                    window: {type: tumbling, size: 1h, offset: 15m}
                    triggers:
                      expected: {count: 64, memberPath: $.shard, firstMember: 1}
                      maxLifetime: 20m
                    incomplete: {policy: hold, atDeadline: dead-letter}
                    emit:
                      sqs: {queueUrl: "${Q}.fifo", fifo: true}
                """);

        CliRun run = CliRun.run("explain", "--config", file.toString(), "--pipeline", "runs");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains(
                "**Tumbling window, size `1h`, offset `15m`.**",
                "`start = floor((t - 15m) / 1h) * 1h + 15m`",
                "`$.shard` has taken each value from 1 to 1 + 64 - 1",
                "The hard lifetime `20m` is not longer than window.size + out-of-orderness (1h 5s)",
                "### 6. Incomplete-window policy: `hold`",
                "is not fired: its aggregate goes to the late-events queue as a `WINDOW_DEAD_LETTERED` record (`atDeadline: dead-letter`",
                "The FIFO deduplication id is the aggregate id",
                "`4:runs/<key length>:<key>/<windowId>/r<revision>`",
                "| `WindowsDeadLettered` |",
                "- `WindowsDeadLettered`: any window dead-lettered incomplete at its hard lifetime",
                "(a window still incomplete takes its missing events, held until its hard deadline: `incomplete: hold`)");
        CliRun reconcile = CliRun.run("explain", "--config", write(Files.readString(file).replace("policy: hold, atDeadline: dead-letter",
                "policy: fire-and-reconcile")).toString(), "--pipeline", "runs");
        assertThat(reconcile.out()).contains("(a window still incomplete takes its missing events as corrections until its hard"
                + " deadline: `incomplete: fire-and-reconcile`)");
    }

    @Test
    void slidingWindowSaysHowManyWindowsAnEventIsIn() throws IOException {
        Path file = write("""
                version: 1
                pipelines:
                  - name: trend
                    key: [$.k]
                    window: {type: sliding, size: 10m, slide: 2m}
                    triggers: {maxLifetime: 30m}
                """);

        CliRun run = CliRun.run("explain", "--config", file.toString());

        assertThat(run.out()).contains("**Sliding window, size `10m`, a new one every `2m`.**", "every event is in exactly 5 windows",
                "(each event is written to 5 windows)");
    }

    @Test
    void onePipelineOnlyWithPipelineFlag() {
        CliRun run = CliRun.run("explain", "--pipeline", "file-uploads");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("## Pipeline `file-uploads`").doesNotContain("## Pipeline `alert-storm`");
    }

    @Test
    void unknownPipelineIsAUsageErrorNamingThePipelines() {
        CliRun run = CliRun.run("explain", "--pipeline", "nope");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("no pipeline \"nope\"", "alert-storm", "shard-completions");
    }

    @Test
    void invalidConfigurationGivesTheSameLinesAsValidateAndExits1() throws IOException {
        Path file = write("version: 1\npipelines:\n  - name: p\n    key: account\n");

        CliRun explain = CliRun.run("explain", "--config", file.toString());
        CliRun validate = CliRun.run("validate", "--config", file.toString());

        assertThat(explain.exit()).isEqualTo(1);
        assertThat(explain.out()).isEmpty();
        assertThat(explain.err()).isEqualTo(validate.out());
        assertThat(validate.exit()).isEqualTo(1);
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("pipelines.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
