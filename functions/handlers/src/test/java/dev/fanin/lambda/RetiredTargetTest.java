package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A deployment that removes a pipeline and the variable its emit target named, together: the pipeline is retired (its
 * recorded definition still names the variable), and the functions that no longer have the variable must keep
 * running the pipelines in force. Building the retired pipeline's emitter made every invocation of every function
 * throw until its record expired; it now has no emitter (its emissions fail, visibly) and is still swept.
 */
class RetiredTargetTest {

    private static final SQSEvent SHARDS = SampleEvents.sqs("sqs-raw-shards.json");
    private static final String ROLLUPS = PublishedConfig.BUNDLED + "\n  - name: rollups\n    key: [$.jobId]\n"
            + "    match: [{path: $.type, equals: rollup.done}]\n    triggers: {maxLifetime: 15m}\n"
            + "    emit: {sqs: {queueUrl: \"${FANIN_ROLLUP_QUEUE_URL}\"}}\n";

    @Test
    void aRetiredPipelineWhoseTargetNoLongerResolvesLeavesThePipelinesInForceRunning() {
        PublishedConfig config = PublishedConfig.bucket("retiredtarget");
        config.publish("p.yaml", ROLLUPS);
        LocalFanin before = LocalFanin.start("retiredtarget", SampleEvents.lastSent(SHARDS).plusSeconds(1), Map.of(
                EnvironmentVariables.CONFIG, config.location("p.yaml"),
                "FANIN_ROLLUP_QUEUE_URL", "https://sqs.us-east-1.amazonaws.com/123456789012/rollups"));
        assertThat(before.ingest(SampleEvents.records(SHARDS, 0))).isEmpty();

        config.publish("p.yaml", PublishedConfig.BUNDLED);
        Map<String, String> redeployed = new HashMap<>(before.environment);
        redeployed.remove("FANIN_ROLLUP_QUEUE_URL");
        before.clock.advance(Duration.ofMinutes(1));
        FaninRuntime after = FaninRuntime.create(redeployed, before.clock);

        assertThat(after.engine().retired()).as("still swept; its emissions fail until the variable is back")
                .extracting(dev.fanin.core.config.PipelineConfig::name).containsExactly("rollups");
        assertThat(new IngestFunction(after).handleRequest(SampleEvents.records(SHARDS, 1), TestContexts.invocation("after"))
                .getBatchItemFailures()).isEmpty();
    }
}
