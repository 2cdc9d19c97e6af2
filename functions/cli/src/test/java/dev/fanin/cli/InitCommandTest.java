package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitCommandTest {

    @TempDir
    Path dir;

    @Test
    void defaultsMakeAValidSessionPipelineThatValidatePrintsOkFor() {
        Path file = dir.resolve("p.yaml");

        CliRun init = CliRun.run("init", "--non-interactive", "--out", file.toString());
        CliRun validate = CliRun.run("validate", "--config", file.toString());

        assertThat(init.exit()).isZero();
        assertThat(init.out()).contains("wrote " + file);
        assertThat(validate.exit()).isZero();
        assertThat(validate.out()).isEqualTo("OK: 1 pipeline (my-pipeline)\n");
        PipelineConfig p = ConfigLoader.load(file).pipelines().get(0);
        assertThat(p.window()).isEqualTo(new WindowSpec.Session(Duration.ofSeconds(30)));
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.FIRE_PARTIAL);
    }

    @Test
    void choicesFollowFromTheAnswersAndAreJustifiedInComments() {
        CliRun run = CliRun.run("init", "--non-interactive", "--name", "uploads", "--envelope", "s3",
                "--sentinel-matches", ".*/_SUCCESS", "--incomplete", "harmful", "--grouping", "quiet", "--quiet-gap", "10m",
                "--max-delay", "1m", "--deadline", "2h", "--rate", "50");

        assertThat(run.exit()).isZero();
        PipelineConfig p = ConfigLoader.load(run.out(), "init").pipelines().get(0);
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.HOLD);
        assertThat(p.triggers().maxLifetime()).isEqualTo(Duration.ofHours(2));
        assertThat(p.triggers().sentinel().when().path().expression()).isEqualTo("$.s3.object.key");
        assertThat(p.watermark().outOfOrderness()).isEqualTo(Duration.ofMinutes(1));
        assertThat(p.key()).hasSize(2);
        assertThat(p.key().get(1).extract().pattern()).isEqualTo("^(.*)/[^/]+$");
        assertThat(p.bounds().maxEventsPerWindow()).isEqualTo(720_000);
        assertThat(run.out()).contains("# session window: \"quiet for 10m\" grouping",
                "maxLifetime: 2h   # your deadline",
                "# firing early is harmful: an incomplete window is held",
                "about 360000 events per window at 50 events/s");
    }

    @Test
    void fixedGroupingWithAKnownSizeThatIsMerelySuboptimalReconciles() {
        CliRun run = CliRun.run("init", "--non-interactive", "--grouping", "fixed", "--size", "1h", "--expected-count", "64",
                "--incomplete", "suboptimal", "--deadline", "30m", "--event-id", "$.shard", "--event-time", "$.finishedAt");

        assertThat(run.exit()).isZero();
        PipelineConfig p = ConfigLoader.load(run.out(), "init").pipelines().get(0);
        assertThat(p.window()).isEqualTo(new WindowSpec.Tumbling(Duration.ofHours(1), Duration.ZERO));
        assertThat(p.triggers().expected().count()).isEqualTo(64);
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.FIRE_AND_RECONCILE);
        assertThat(p.eventId().expression()).isEqualTo("$.shard");
        assertThat(p.eventTime().path().expression()).isEqualTo("$.finishedAt");
    }

    @Test
    void interactiveAnswersComeFromStdinAndEmptyLinesTakeTheDefault() {
        String answers = String.join("\n",
                "shards", "shard done events", "raw", "$.jobId,$.runId", "$.shard", "$.finishedAt", "5",
                "one rollup write", "nonsense", "suboptimal", "overlapping", "10m", "3m", "2m", "count-path", "$.shardCount",
                "", "") + "\n";

        CliRun run = CliRun.withInput(answers, "init");

        assertThat(run.exit()).isZero();
        assertThat(run.err()).contains("Pipeline name", "[my-pipeline]", "answer harmful or suboptimal",
                "does not divide the window size 10m exactly", "[none]");
        PipelineConfig p = ConfigLoader.load(run.out(), "init").pipelines().get(0);
        assertThat(p.name()).isEqualTo("shards");
        assertThat(p.window()).isEqualTo(new WindowSpec.Sliding(Duration.ofMinutes(10), Duration.ofMinutes(2)));
        assertThat(p.triggers().expected().countPath().expression()).isEqualTo("$.shardCount");
        assertThat(p.watermark().outOfOrderness()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.incomplete().mode()).isEqualTo(IncompletePolicy.Mode.FIRE_AND_RECONCILE);
    }

    @Test
    void endOfInputTakesEveryRemainingDefault() {
        CliRun run = CliRun.withInput("early-eof\n", "init");

        assertThat(run.exit()).isZero();
        FaninConfig config = ConfigLoader.load(run.out(), "init");
        assertThat(config.pipelines().get(0).name()).isEqualTo("early-eof");
    }

    /**
     * The loader wants maxLifetime beyond the window and its out-of-orderness: with a deadline shorter than the gap plus
     * the delay events may have, a window waits half of what the deadline leaves after its end, and events later than
     * that, up to the delay, are corrections.
     */
    @Test
    void aDeadlineWithinTheDelayEventsMayHaveWaitsHalfOfWhatItLeavesAndCorrectsTheRest() {
        CliRun run = CliRun.run("init", "--non-interactive", "--grouping", "quiet", "--quiet-gap", "30s", "--max-delay", "8d",
                "--deadline", "30m");

        assertThat(run.exit()).as(run.err()).isZero();
        PipelineConfig p = ConfigLoader.load(run.out(), "init").pipelines().get(0);
        assertThat(p.triggers().maxLifetime()).isEqualTo(Duration.ofMinutes(30));
        assertThat(p.watermark().outOfOrderness()).isEqualTo(Duration.ofSeconds(885));
        assertThat(p.allowedLateness()).isEqualTo(Duration.ofDays(8));
        assertThat(run.out()).contains("outOfOrderness: 885s   # half of what your deadline leaves after a window's end");
    }

    /** A marker later than the gap after the batch's last file starts a session of its own (SEMANTICS session rule 11). */
    @Test
    void aSessionWithAnEndMarkerSaysTheMarkerMustComeWithinTheGap() {
        CliRun run = CliRun.run("init", "--non-interactive", "--name", "uploads", "--envelope", "s3", "--sentinel-matches",
                ".*/_SUCCESS", "--incomplete", "harmful");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("# a batch is what comes within the gap: an end marker or a missing event whose time is more than");
    }

    @Test
    void deadlineNoLongerThanTheWindowWithoutCompletenessIsRefused() {
        CliRun run = CliRun.run("init", "--non-interactive", "--grouping", "fixed", "--size", "1h", "--deadline", "30m");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("a deadline of 30m is not longer than the window size 1h");
    }

    @Test
    void badOrMisplacedFlagValuesAreUsageErrors() {
        assertThat(CliRun.run("init", "--non-interactive", "--quiet-gap", "30").err()).contains("--quiet-gap \"30\"", "is not a duration");
        assertThat(CliRun.run("init", "--non-interactive", "--grouping", "fixed", "--quiet-gap", "30s").err())
                .contains("--quiet-gap applies to --grouping quiet only");
        assertThat(CliRun.run("init", "--non-interactive", "--expected-count", "5", "--expected-count-path", "$.n").err())
                .contains("not both");
        assertThat(CliRun.run("init", "--non-interactive", "--key", "account").err()).contains("must start with \"$\"");
        assertThat(CliRun.run("init", "--non-interactive", "--envelope", "kafka").exit()).isEqualTo(2);
    }

    @Test
    void existingOutputIsOverwrittenOnlyWithForce() throws IOException {
        Path file = dir.resolve("taken.yaml");
        Files.writeString(file, "keep me");

        CliRun refused = CliRun.run("init", "--non-interactive", "--out", file.toString());

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(Files.readString(file)).isEqualTo("keep me");
        assertThat(CliRun.run("init", "--non-interactive", "--force", "--out", file.toString()).exit()).isZero();
        assertThat(ConfigLoader.load(file).pipelines()).hasSize(1);
    }
}
