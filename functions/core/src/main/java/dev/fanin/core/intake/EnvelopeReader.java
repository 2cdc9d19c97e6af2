package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.Envelope;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Recognises and opens the envelopes a message body can arrive in. Shapes, as AWS delivers them to SQS:
 * <ul>
 *   <li>EVENTBRIDGE: an object with {@code version}, {@code id}, {@code detail-type}, {@code source}, {@code time}
 *       and an object {@code detail}; the payload is {@code detail}.</li>
 *   <li>SNS (not raw delivery): {@code "Type": "Notification"} and a string {@code Message} holding JSON; the payload
 *       is the parsed {@code Message}, under the same parser limits as the body.</li>
 *   <li>S3: {@code Records}, a non-empty array whose every element has {@code "eventSource": "aws:s3"}; each record
 *       is one payload and its own envelope. Also accepted inside an SNS notification's {@code Message}.</li>
 *   <li>RAW: any object; the payload is the body.</li>
 * </ul>
 */
final class EnvelopeReader {

    private final StrictJson json;

    EnvelopeReader(StrictJson json) {
        this.json = json;
    }

    /** Reads {@code body} (a JSON object) with the given envelope kind. */
    Unwrapping unwrap(JsonNode body, Envelope kind) {
        return switch (kind) {
            case RAW -> single(Envelope.RAW, body, body);
            case EVENTBRIDGE -> unwrapEventBridge(body);
            case SNS -> unwrapSns(body);
            case S3 -> unwrapS3(body);
        };
    }

    /** A short human description of what the body looks like, for "no matching pipeline" details. */
    String describe(JsonNode body) {
        if (isS3TestEvent(body)) {
            return "an S3 test event (s3:TestEvent)";
        }
        if (isS3Notification(body)) {
            return "an S3 notification with " + body.get("Records").size() + " record(s), bucket "
                    + Details.value(body.get("Records").get(0).path("s3").path("bucket").path("name"));
        }
        if (isEventBridgeEvent(body)) {
            return "an EventBridge event (source " + Details.value(body.get("source")) + ", detail-type "
                    + Details.value(body.get("detail-type")) + ")";
        }
        if (isSnsNotification(body)) {
            String inner;
            try {
                JsonNode message = snsMessage(body);
                inner = isS3Notification(message) || isS3TestEvent(message) ? "an S3 notification" : "JSON with fields " + fieldNames(message);
            } catch (IntakeFailure f) {
                inner = "an unusable Message (" + f.reason() + ")";
            }
            return "an SNS notification (topic " + Details.value(body.path("TopicArn")) + ") carrying " + inner;
        }
        return "plain JSON with no recognised envelope (RAW), fields " + fieldNames(body);
    }

    /**
     * An EventBridge event whose {@code detail} is null, absent or not an object has the envelope's shape but no
     * payload: that is the problem to report (a PutEvents without Detail), not that the body would read as RAW.
     */
    private static Unwrapping unwrapEventBridge(JsonNode body) {
        if (isEventBridgeEvent(body)) {
            return single(Envelope.EVENTBRIDGE, body.get("detail"), body);
        }
        if (!hasEventBridgeHeader(body)) {
            return new Unwrapping.NotThisEnvelope();
        }
        JsonNode detail = body.path("detail");
        String what = detail.isMissingNode() ? "absent" : Details.kind(detail) + " " + Details.value(detail);
        return new Unwrapping.Broken(RejectionReason.NOT_A_JSON_OBJECT, "$envelope.detail of this EventBridge event (source "
                + Details.value(body.get("source")) + ", detail-type " + Details.value(body.get("detail-type")) + ") is " + what
                + ", but the payload of envelope eventbridge is the detail object: have the producer send a JSON object as"
                + " Detail (PutEvents), or read the event with envelope raw and $.<field> paths");
    }

    private Unwrapping unwrapSns(JsonNode body) {
        if (!isSnsNotification(body)) {
            return new Unwrapping.NotThisEnvelope();
        }
        try {
            return single(Envelope.SNS, snsMessage(body), body);
        } catch (IntakeFailure f) {
            return new Unwrapping.Broken(f.reason(), f.detail());
        }
    }

    private Unwrapping unwrapS3(JsonNode body) {
        JsonNode notification = body;
        if (isSnsNotification(body)) {
            try {
                notification = snsMessage(body);
            } catch (IntakeFailure f) {
                return new Unwrapping.NotThisEnvelope();
            }
        }
        if (isS3TestEvent(notification)) {
            return new Unwrapping.TestEvent("s3:TestEvent for bucket " + Details.value(notification.path("Bucket")));
        }
        if (!isS3Notification(notification)) {
            return new Unwrapping.NotThisEnvelope();
        }
        List<Unwrapping.Unit> units = new ArrayList<>();
        JsonNode records = notification.get("Records");
        for (int i = 0; i < records.size(); i++) {
            units.add(new Unwrapping.Unit(Envelope.S3, records.get(i), records.get(i), i));
        }
        return new Unwrapping.Payloads(Envelope.S3, units);
    }

    private static Unwrapping single(Envelope kind, JsonNode payload, JsonNode envelope) {
        return new Unwrapping.Payloads(kind, List.of(new Unwrapping.Unit(kind, payload, envelope, Rejected.WHOLE_MESSAGE)));
    }

    private JsonNode snsMessage(JsonNode body) {
        JsonNode message = json.parse(body.get("Message").textValue(), "$envelope.Message");
        if (!message.isObject()) {
            throw new IntakeFailure(RejectionReason.NOT_A_JSON_OBJECT,
                    "$envelope.Message is " + Details.kind(message) + " " + Details.value(message) + ", expected a JSON object");
        }
        return message;
    }

    static boolean isEventBridgeEvent(JsonNode body) {
        return hasEventBridgeHeader(body) && body.path("detail").isObject();
    }

    private static boolean hasEventBridgeHeader(JsonNode body) {
        return body.path("version").isTextual() && body.path("id").isTextual() && body.path("detail-type").isTextual()
                && body.path("source").isTextual() && body.path("time").isTextual();
    }

    static boolean isSnsNotification(JsonNode body) {
        return "Notification".equals(body.path("Type").textValue()) && body.path("Message").isTextual();
    }

    /**
     * A {@code Records} array with at least one S3 record: the notification is read, and a record that is not from S3
     * is refused on its own ({@link #isS3Record}), so that one foreign record neither loses its neighbours nor turns
     * the whole message into an envelope mismatch.
     */
    static boolean isS3Notification(JsonNode body) {
        JsonNode records = body.path("Records");
        if (!records.isArray()) {
            return false;
        }
        for (JsonNode record : records) {
            if (isS3Record(record)) {
                return true;
            }
        }
        return false;
    }

    static boolean isS3Record(JsonNode record) {
        return "aws:s3".equals(record.path("eventSource").textValue());
    }

    static boolean isS3TestEvent(JsonNode body) {
        return "s3:TestEvent".equals(body.path("Event").textValue()) && "Amazon S3".equals(body.path("Service").textValue());
    }

    private static String fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        Iterator<String> it = node.fieldNames();
        while (it.hasNext() && names.size() < 8) {
            names.add(it.next());
        }
        String joined = String.join(", ", names) + (node.size() > names.size() ? ", ..." : "");
        return "[" + Details.escape(joined.length() > Details.MAX_CHARS ? joined.substring(0, Details.MAX_CHARS) + "..." : joined) + "]";
    }
}
