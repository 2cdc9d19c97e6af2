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
