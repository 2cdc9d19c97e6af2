package dev.fanin.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.cli.FaninCli;
import dev.fanin.cli.local.FastSamplePipelines;
import dev.fanin.cli.local.LocalCommand;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * The whole pipeline end to end through the Lambda handlers against LocalStack (Testcontainers): resources from
 * template.yaml, SQS pollers, timers, the sweeper, the bus, the sample traffic of {@code fanin local}. Runs where a
 * Docker engine answers; skipped, saying why, where it does not (the default suite covers the same path on moto
 * in {@code LocalCommandTest}).
 */
class LocalStackEndToEndTest {

    @Test
    void sampleTrafficEndToEndOnLocalStack(@TempDir Path dir) {
        Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "no Docker engine answers: LocalStack cannot run here, so this end-to-end test is skipped"
                        + " (LocalCommandTest runs the same path against moto)");
        // An empty environment: never AWS_ENDPOINT_URL, so with Docker the testkit starts LocalStack.
        try (LocalAwsEndpoint localStack = LocalAwsEndpoint.start(Map.of())) {
            assertThat(localStack.kind()).isEqualTo("localstack");
            Path config = FastSamplePipelines.write(dir);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit;
            try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                 PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                LocalCommand command = new LocalCommand(new LocalCommand.EndpointSource() {
                    @Override
                    public LocalAwsEndpoint open() {
                        return localStack;
                    }

                    @Override
                    public boolean owned() {
                        return false;
                    }
                });
                exit = new FaninCli(List.of(command)).run(new String[] {"local", "--config", config.toString(),
                        "--sweep-every", "2s", "--max-wait", "90s"}, new ByteArrayInputStream(new byte[0]), o, e);
            }
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(text)
                    .contains("fanin local: localstack at ")
                    .containsPattern("FIRED +alert-storm ")
                    .containsPattern("FIRED +file-uploads .* EXPECTED_COMPLETE")
                    .containsPattern("FIRED +shard-completions .* EXPECTED_COMPLETE")
                    .containsPattern("CORRECTION +alert-storm .* LATE_CORRECTION")
                    .containsPattern("DEAD-LETTER +MALFORMED_JSON")
                    .contains("ok: everything expected happened");
            assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(FaninCli.OK);
        }
    }
}
