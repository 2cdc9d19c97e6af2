package dev.fanin.bench.coldstart;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.fanin.lambda.IngestFunction;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cold-start probe, run in a fresh JVM on the classpath of the shaded functions jar: what the Lambda runtime does
 * on a cold start of the ingest function, that is {@code new IngestFunction()} (its no-argument constructor builds the
 * SDK clients, loads the configuration named by the environment and wires the engine), then {@code handleRequest} of
 * one SQS batch of ten alert messages, against the endpoint in {@code AWS_ENDPOINT_URL} and the resources named by
 * the {@code FANIN_*} variables of template.yaml. Prints one line: milliseconds from JVM start to the end of
 * initialisation and to the first batch handled.
 */
public final class FirstBatchMain {

    private FirstBatchMain() { }

    public static void main(String[] args) {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        IngestFunction function = new IngestFunction();
        long initialised = System.currentTimeMillis();
        SQSBatchResponse response = function.handleRequest(batch(Instant.now()), null);
        long handled = System.currentTimeMillis();
        System.out.printf("init_ms=%d first_batch_ms=%d failed=%d%n", initialised - jvmStart, handled - jvmStart,
                response.getBatchItemFailures().size());
        System.out.flush();
        // The function's runtime keeps non-daemon threads (as in Lambda, where the sandbox is frozen, not ended).
        System.exit(0);
    }

    private static SQSEvent batch(Instant now) {
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId("cold-" + i);
            m.setBody("{\"version\":\"0\",\"id\":\"cold-" + now.toEpochMilli() + "-" + i + "\",\"detail-type\":\"Resource Alert\","
                    + "\"source\":\"custom.alerts\",\"account\":\"111122223333\",\"time\":\"" + now + "\",\"region\":\"eu-west-1\","
                    + "\"resources\":[],\"detail\":{\"service\":\"svc-" + (i % 3) + "\",\"resource\":\"i-" + i + "\",\"severity\":\"HIGH\"}}");
            m.setAttributes(Map.of("SentTimestamp", Long.toString(now.toEpochMilli()), "ApproximateReceiveCount", "1"));
            m.setEventSource("aws:sqs");
            records.add(m);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }
}
