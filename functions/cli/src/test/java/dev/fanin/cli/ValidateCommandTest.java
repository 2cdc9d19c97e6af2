package dev.fanin.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.ConfigProblem;
import dev.fanin.core.config.PipelineConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {

    @TempDir
    Path dir;

    @Test
    void bundledConfigurationIsValidatedWhenNoFileIsGiven() {
        String names = ConfigLoader.loadBundled().pipelines().stream().map(PipelineConfig::name).collect(Collectors.joining(", "));
        int count = ConfigLoader.loadBundled().pipelines().size();

        CliRun run = CliRun.run("validate");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("OK: " + count + " pipelines (" + names + ")\n");
        assertThat(run.err()).contains("validating the bundled classpath:fanin/pipelines.yaml");
    }

    @Test
    void validFileWithOnePipelineSaysSoInTheSingular() throws IOException {
        Path file = write("version: 1\npipelines:\n  - name: orders\n    key: [$.customerId]\n    triggers: {maxLifetime: 15m}\n");

        CliRun run = CliRun.run("validate", "--config=" + file);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("OK: 1 pipeline (orders)\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void everyProblemIsPrintedExactlyAsTheLoaderStatesItThenTheCount() throws IOException {
        Path file = write("version: 1\npipelines:\n  - name: p\n    key: [$.a]\n    windw: {type: session, gap: 30s}\n"
                + "    triggers: {maxLifetime: never}\n    allowedLateness: -5s\n");
        List<ConfigProblem> expected = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(file)).problems();

        CliRun run = CliRun.run("validate", "--config", file.toString());

        List<String> lines = new ArrayList<>();
        expected.forEach(problem -> lines.add(problem.toString()));
        lines.add(expected.size() + " problems");
        assertThat(expected).hasSizeGreaterThanOrEqualTo(3);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out().lines()).containsExactlyElementsOf(lines);
        assertThat(run.out()).contains("pipeline \"p\": windw is not a known field; did you mean \"window\"?");
    }

    /** A broken field hides no other problem: the cross-section rules and the size budget run on what was read. */
    @Test
    void problemsInDifferentSectionsAreAllReportedInOnePass() throws IOException {
        Path file = write("version: 1\npipelines:\n  - name: uploads\n    key: [$.a]\n    window: {type: session, gap: 30m}\n"
                + "    triggers: {cuont: 5, maxLifetime: 15m}\n    incomplete: {policy: hold}\n"
                + "    aggregations: [{name: samples, type: last, n: 100}]\n    bounds: {maxOpenWindows: none}\n");

        CliRun run = CliRun.run("validate", "--config", file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out().lines()).containsExactly(
                "pipeline \"uploads\": triggers.cuont is not a known field; did you mean \"count\"?",
                "pipeline \"uploads\": bounds.maxOpenWindows must be a whole number, not \"none\"",
                "pipeline \"uploads\": triggers.maxLifetime \"15m\" is not longer than window.gap \"30m\" plus watermark.outOfOrderness"
                        + " \"5s\" and no count, expected or sentinel trigger can close a window sooner, so windows would close by"
                        + " maxLifetime before the watermark passes their end; make it longer than \"1805s\" or add a trigger",
                "pipeline \"uploads\": incomplete.policy is hold, but this pipeline has no way to know a window is complete; add"
                        + " triggers.expected or triggers.sentinel, or use policy: fire-partial",
                "pipeline \"uploads\": aggregations can make an aggregate of up to 1041341 bytes, more than the 262124 bytes an"
                        + " EventBridge entry takes here; the largest is aggregations[0] \"samples\" with up to 1033935 bytes:"
                        + " lower its n or maxValueBytes",
                "5 problems");
    }

    @Test
    void oneProblemIsCountedInTheSingular() throws IOException {
        Path file = write("version: 2\npipelines:\n  - name: orders\n    key: [$.customerId]\n    triggers: {maxLifetime: 15m}\n");

        CliRun run = CliRun.run("validate", "--config", file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEqualTo("version is 2; this fanin reads version 1 only, so write \"version: 1\"\n1 problem\n");
    }

    @Test
    void missingFileIsAProblemNotACrash() {
        CliRun run = CliRun.run("validate", "--config", dir.resolve("absent.yaml").toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("the file cannot be read").endsWith("1 problem\n");
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("pipelines.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
