package dev.fanin.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Sample traffic for the three bundled jobs, built from the message shapes in {@code events/} (the files
 * {@code sam local invoke -e} uses) with event times of this run, so every message is fresh:
 * <ul>
 *   <li>alert-storm (EventBridge envelopes): a burst for payments-api with a duplicate and an out-of-order alert,
 *       a burst for checkout-api, and, once the payments-api window has fired, a late alert inside it (a
 *       correction);</li>
 *   <li>alert-storm-sns: one alert published through SNS;</li>
 *   <li>file-uploads (S3 notifications): one complete batch (3 files and {@code _manifest-3.json}) and one batch
 *       missing two files (held until its deadline);</li>
 *   <li>shard-completions: a run where all 4 shards report, and a run missing shard 2 (fires partial at its
 *       deadline);</li>
 *   <li>one malformed message (dead-lettered with its reason).</li>
 * </ul>
 * Pure apart from reading the templates: ids come from {@code run}, times from {@code start}.
 */
final class SampleTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    static final String PAYMENTS = "payments-api";
    static final String CHECKOUT = "checkout-api";

    private final Path eventsDir;
    private final Instant start;
    private final String run;

    private SampleTraffic(Path eventsDir, Instant start, String run) {
        this.eventsDir = eventsDir;
        this.start = start;
        this.run = run;
    }

    /**
     * @param eventsDir the repository's {@code events/} folder
     * @param start     when the traffic starts (event times are relative to it)
     * @param run       a short id unique to this run, used in upload prefixes and run ids
     */
    static Traffic build(Path eventsDir, Instant start, String run) {
        return new SampleTraffic(eventsDir, start, run).traffic();
    }

    private Traffic traffic() {
        List<Send> sends = new ArrayList<>();
        ObjectNode alert = (ObjectNode) firstBody("sqs-eventbridge-alerts.json");
        // payments-api: 4 alerts, a duplicate of the second (same EventBridge id), an out-of-order one.
        String secondId = UUID.randomUUID().toString();
        sends.add(alertSend(alert, 0.0, 0.0, PAYMENTS, "i-0a01", UUID.randomUUID().toString(), "alert 1"));
        sends.add(alertSend(alert, 0.5, 0.5, PAYMENTS, "i-0a02", secondId, "alert 2"));
        sends.add(alertSend(alert, 1.0, 1.0, PAYMENTS, "i-0a03", UUID.randomUUID().toString(), "alert 3"));
        sends.add(alertSend(alert, 1.5, 0.5, PAYMENTS, "i-0a02", secondId, "alert 2 again (duplicate: same id)"));
        sends.add(alertSend(alert, 2.5, 2.5, PAYMENTS, "i-0a04", UUID.randomUUID().toString(), "alert 4"));
        sends.add(alertSend(alert, 3.0, 0.2, PAYMENTS, "i-0a05", UUID.randomUUID().toString(), "alert 5 (out of order: happened before alert 2)"));
        // checkout-api: a second key of the same pipeline.
        sends.add(alertSend(alert, 2.0, 2.0, CHECKOUT, "i-0c01", UUID.randomUUID().toString(), "alert 1"));
        sends.add(alertSend(alert, 3.5, 3.5, CHECKOUT, "i-0c02", UUID.randomUUID().toString(), "alert 2"));
        sends.add(alertSend(alert, 4.0, 4.0, CHECKOUT, "i-0c03", UUID.randomUUID().toString(), "alert 3"));

        sends.add(snsAlert((ObjectNode) firstBody("sqs-sns-alerts.json"), 1.0));

        ObjectNode upload = (ObjectNode) firstBody("sqs-s3-uploads.json");
        String complete = "uploads/" + run + "-complete/";
        String incomplete = "uploads/" + run + "-incomplete/";
        for (int i = 1; i <= 3; i++) {
            sends.add(s3Send(upload, 0.5 + i, complete + "part-00" + i + ".csv", 48_000 + i * 17, "file " + i + " of 3"));
        }
        sends.add(s3Send(upload, 4.0, complete + "_manifest-3.json", 412, "_manifest-3.json: the batch has 3 files"));
        sends.add(s3Send(upload, 2.0, incomplete + "part-001.csv", 51_377, "file 1 of 3"));
        sends.add(s3Send(upload, 3.0, incomplete + "_manifest-3.json", 412, "_manifest-3.json (files 2 and 3 never arrive: held)"));

        ObjectNode shard = (ObjectNode) firstBody("sqs-raw-shards.json");
        String completeRun = run + "-a";
        String partialRun = run + "-b";
        for (int s = 0; s < 4; s++) {
            sends.add(shardSend(shard, 0.8 + s * 0.7, completeRun, s, "shard " + s + " of 4 done"));
        }
        for (int s : new int[] {0, 1, 3}) {
            sends.add(shardSend(shard, 1.2 + s * 0.6, partialRun, s, "shard " + s + " of 4 done" + (s == 3 ? " (shard 2 never reports)" : "")));
        }

        sends.add(new Send(millis(2.2), firstBody("sqs-bad-messages.json").isTextual()
                ? firstBody("sqs-bad-messages.json").textValue() : "this is not json", "malformed: not JSON (dead-lettered)"));

        Send late = alertSend(alert, 0.0, 1.8, PAYMENTS, "i-0a06", UUID.randomUUID().toString(),
                "alert 6, LATE: happened inside the fired window (a correction)");
        return new Traffic(sends,
                List.of(new Traffic.FollowUp("alert-storm", PAYMENTS, late)),
                List.of(Traffic.Expectation.aggregate("alert-storm"),
                        Traffic.Expectation.aggregate("alert-storm-sns"),
                        Traffic.Expectation.aggregate("file-uploads", "EXPECTED_COMPLETE", "the complete upload batch fired"),
                        Traffic.Expectation.aggregate("shard-completions", "EXPECTED_COMPLETE", "the complete shard run fired"),
                        Traffic.Expectation.aggregate("alert-storm", "LATE_CORRECTION", "the late alert produced a correction"),
                        Traffic.Expectation.deadLetter("the malformed message was dead-lettered")));
    }

    private Send alertSend(ObjectNode template, double sentAt, double happenedAt, String service, String resource,
                           String id, String what) {
        ObjectNode body = template.deepCopy();
        body.put("id", id);
        body.put("time", ISO_SECONDS.format(start.plus(millis(happenedAt)).plusMillis(999)));
        ObjectNode detail = (ObjectNode) body.path("detail");
        detail.put("service", service);
        detail.put("resource", resource);
        body.putArray("resources").add("arn:aws:ec2:" + body.path("region").asText() + ":" + body.path("account").asText()
                + ":instance/" + resource);
        return new Send(millis(sentAt), body.toString(), "alert-storm: " + service + " " + what);
    }

    private Send snsAlert(ObjectNode template, double at) {
        ObjectNode envelope = template.deepCopy();
        ObjectNode message;
        try {
            message = (ObjectNode) JSON.readTree(envelope.path("Message").asText());
        } catch (IOException e) {
            throw new UncheckedIOException("events/sqs-sns-alerts.json: the SNS Message is not JSON", e);
        }
        Instant when = start.plus(millis(at));
        message.put("alertId", "alrt-" + run);
        message.put("time", ISO_SECONDS.format(when.plusMillis(999)));
        envelope.put("MessageId", UUID.randomUUID().toString());
        envelope.put("Timestamp", ISO_MILLIS.format(when));
        envelope.put("Message", message.toString());
        return new Send(millis(at), envelope.toString(), "alert-storm-sns: " + message.path("service").asText() + " alert via SNS");
    }

    private Send s3Send(ObjectNode template, double at, String key, long size, String what) {
        ObjectNode body = template.deepCopy();
        ArrayNode records = (ArrayNode) body.path("Records");
        ObjectNode record = ((ObjectNode) records.get(0)).deepCopy();
        records.removeAll();
        records.add(record);
        record.put("eventTime", ISO_MILLIS.format(start.plus(millis(at))));
        ObjectNode object = (ObjectNode) record.path("s3").path("object");
        object.put("key", key);
        object.put("size", size);
        object.put("sequencer", Long.toHexString(start.plus(millis(at)).toEpochMilli()).toUpperCase());
        String prefix = key.substring(0, key.lastIndexOf('/'));
        return new Send(millis(at), body.toString(), "file-uploads: " + prefix + " " + what);
    }

    private Send shardSend(ObjectNode template, double at, String runId, int shard, String what) {
        ObjectNode body = template.deepCopy();
        body.put("runId", runId);
        body.put("shard", shard);
        body.put("shardCount", 4);
        body.put("rows", 1100 + shard * 37);
        body.put("durationMs", 5000 + shard * 211);
        body.put("finishedAt", ISO_MILLIS.format(start.plus(millis(at))));
        return new Send(millis(at), body.toString(), "shard-completions: " + body.path("jobId").asText() + " run " + runId + " " + what);
    }

    private JsonNode firstBody(String file) {
        Path path = eventsDir.resolve(file);
        try {
            JsonNode records = JSON.readTree(Files.readString(path)).path("Records");
            if (!records.isArray() || records.isEmpty()) {
                throw new IllegalStateException(path + " has no Records");
            }
            String body = records.get(0).path("body").asText();
            try {
                return JSON.readTree(body);
            } catch (IOException notJson) {
                return JSON.getNodeFactory().textNode(body);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the sample message shapes from " + path, e);
        }
    }

    private static Duration millis(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
