package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.cli.FaninCli;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fanin local} in-process against the shared local endpoint (moto here): the real handlers, pollers and
 * sweeper, the sample traffic, and the live view read back from the queues and the table.
 */
class LocalCommandTest {

    record Run(int exit, String out, String err) { }

    static Run run(LocalAwsEndpoint endpoint, String... args) {
        LocalCommand command = new LocalCommand(new LocalCommand.EndpointSource() {
            @Override
            public LocalAwsEndpoint open() {
                return endpoint;
            }

            @Override
            public boolean owned() {
                return false;
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            String[] line = new String[args.length + 1];
            line[0] = "local";
            System.arraycopy(args, 0, line, 1, args.length);
            exit = new FaninCli(List.of(command)).run(line, new ByteArrayInputStream(new byte[0]), o, e);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void sampleTrafficFiresEveryJobCorrectsTheLateAlertAndDeadLettersTheMalformedMessage(@TempDir Path dir) {
        Path config = FastSamplePipelines.write(dir);

        Run run = run(LocalAwsEndpoint.shared(), "--config", config.toString(), "--sweep-every", "2s", "--max-wait", "50s");

        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .contains("resources from template.yaml: table fanin-local-")
                .contains("TimerFunction: polls its queue like Lambda: batch size 10, batching window 1s, visibility timeout 200s")
                .contains("in AWS every 1 minute (SweepSchedule in template.yaml)")
                .containsPattern("FIRED +alert-storm +111122223333\\|eu-west-1\\|payments-api +rev 0 +SESSION_GAP +complete \\(5 events\\)")
                .containsPattern("FIRED +alert-storm +111122223333\\|eu-west-1\\|checkout-api +rev 0")
                .containsPattern("FIRED +alert-storm-sns ")
                .containsPattern("FIRED +file-uploads +acme-ingest\\|uploads/\\w+-complete +rev 0 +EXPECTED_COMPLETE +complete \\(3 of 3\\)")
                .containsPattern("FIRED +shard-completions +nightly-etl\\|\\w+-a +rev 0 +EXPECTED_COMPLETE +complete \\(4 of 4\\)")
                .containsPattern("CORRECTION +alert-storm +111122223333\\|eu-west-1\\|payments-api +rev 1 +LATE_CORRECTION .*\\(6 events\\).* corrects ")
                .containsPattern("DEAD-LETTER +MALFORMED_JSON: .*body: this is not json")
                .contains("summary (everything settled)")
                // Its state is deflated (binary) in the table: read through the adapter, not as a string, it counts its files.
                .containsPattern("file-uploads +acme-ingest\\|uploads/\\w+-incomplete +(OPEN|HELD) +[1-9]\\d* events")
                .containsPattern("shard-completions +nightly-etl\\|\\w+-b +OPEN")
                .contains("ok: everything expected happened");
        assertThat(run.out()).doesNotContain("\033[");
        assertThat(run.exit()).isEqualTo(FaninCli.OK);
    }

    @Test
    void userEventsWithoutAnyAggregateEndAtMaxWaitAndFail(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.jsonl");
        Files.writeString(events, "{\"at\": \"0s\", \"body\": \"not json at all\"}\n");

        Run run = run(LocalAwsEndpoint.shared(), "--events", events.toString(), "--sweep-every", "2s", "--max-wait", "4s");

        assertThat(run.out())
                .contains("SENT        line 1: not json at all")
                .containsPattern("DEAD-LETTER +MALFORMED_JSON")
                .contains("PROBLEM: expected, did not happen: at least one aggregate");
        assertThat(run.exit()).isEqualTo(FaninCli.INVALID_INPUT);
    }

    /**
     * The body fanin ingests is the file's bytes: it comes back from the dead-letter queue (it matches no pipeline)
     * exactly as written, its big number, exponent, escape and key order untouched.
     */
    @Test
    void aUserEventReachesTheQueueAsTheFileWritesIt(@TempDir Path dir) throws Exception {
        String body = "{\"z\": 12345678901234567890.5, \"a\": 1E+2, \"s\": \"caf\\u00e9\", \"b\": [0.10]}";
        Path events = dir.resolve("events.jsonl");
        Files.writeString(events, "{\"at\": \"+0s\", \"body\": " + body + "}\n");

        Run run = run(LocalAwsEndpoint.shared(), "--events", events.toString(), "--sweep-every", "2s", "--max-wait", "4s");

        assertThat(run.out()).containsPattern("DEAD-LETTER +\\S.*  body: " + java.util.regex.Pattern.quote(body) + "\n");
    }

    @Test
    void aBadDurationIsAUsageError() {
        Run run = run(LocalAwsEndpoint.shared(), "--max-wait", "soon");

        assertThat(run.exit()).isEqualTo(FaninCli.USAGE);
        assertThat(run.err()).contains("'--max-wait': \"soon\" is not a duration");
        assertThat(run(LocalAwsEndpoint.shared(), "--max-wait", "0s").err()).contains("--max-wait must be a positive duration");
    }
}
