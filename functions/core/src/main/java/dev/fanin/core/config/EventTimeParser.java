package dev.fanin.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/**
 * Reads {@code eventTime}: a path alone, or a mapping of path, format, fallback and the accepted skew. Without a
 * path, the envelope's own timestamp is used when it has one (EventBridge {@code time}, SNS {@code Timestamp}, the
 * S3 record's {@code eventTime}); a raw body has none, so its events take the fallback.
 */
final class EventTimeParser {

    private static final List<String> FIELDS = List.of("path", "format", "fallback", "maxFuture", "maxPast");

    private EventTimeParser() {
    }

    /** The event-time spec, or null after reporting its problems; {@code envelope} null when it was unreadable. */
    static EventTimeSpec parse(Section pipeline, Envelope envelope) {
        FieldPath envelopeDefault = envelope == null ? null : defaultPath(envelope);
        if (!pipeline.has("eventTime")) {
            return new EventTimeSpec(envelopeDefault, ConfigDefaults.TIME_FORMAT, ConfigDefaults.TIME_FALLBACK,
                    ConfigDefaults.MAX_FUTURE, ConfigDefaults.MAX_PAST);
        }
        JsonNode node = pipeline.get("eventTime");
        if (!node.isObject()) {
            FieldPath path = Values.path(pipeline.at("eventTime"), node);
            return path == null ? null : new EventTimeSpec(path, ConfigDefaults.TIME_FORMAT, ConfigDefaults.TIME_FALLBACK,
                    ConfigDefaults.MAX_FUTURE, ConfigDefaults.MAX_PAST);
        }
        Section section = pipeline.section("eventTime");
        int before = section.spot().problems().count();
        section.allowOnly(FIELDS);
        FieldPath path = section.path("path", envelopeDefault);
        EventTimeSpec.TimeFormat format = section.choice("format", EventTimeSpec.TimeFormat.class, ConfigDefaults.TIME_FORMAT);
        EventTimeSpec.TimeFallback fallback = section.choice("fallback", EventTimeSpec.TimeFallback.class, ConfigDefaults.TIME_FALLBACK);
        Duration maxFuture = section.duration("maxFuture", ConfigDefaults.MAX_FUTURE, Values.Sign.POSITIVE);
        Duration maxPast = section.duration("maxPast", ConfigDefaults.MAX_PAST, Values.Sign.POSITIVE);
        if (envelope != null && path == null && !section.has("path") && fallback == EventTimeSpec.TimeFallback.REJECT) {
            section.at("fallback").problem("is reject, but a " + Values.yamlName(envelope)
                    + " envelope has no event time unless eventTime.path is set, so every message would be rejected; set eventTime.path or use fallback: sqs-sent-timestamp");
        }
        if (section.spot().problems().count() != before) {
            return null;
        }
        return new EventTimeSpec(path, format, fallback, maxFuture, maxPast);
    }

    static FieldPath defaultPath(Envelope envelope) {
        return switch (envelope) {
            case RAW -> null;
            case EVENTBRIDGE -> FieldPath.parse(ConfigDefaults.EVENTBRIDGE_EVENT_TIME);
            case SNS -> FieldPath.parse(ConfigDefaults.SNS_EVENT_TIME);
            case S3 -> FieldPath.parse(ConfigDefaults.S3_EVENT_TIME);
        };
    }
}
