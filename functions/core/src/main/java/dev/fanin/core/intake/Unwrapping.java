package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.Envelope;
import java.util.List;

/** The outcome of reading a message body with one envelope kind. A value: {@link EnvelopeReader} has no side effects. */
sealed interface Unwrapping {

    /** The body has the envelope's shape; these are its payloads (one, or one per S3 record). */
    record Payloads(Envelope kind, List<Unit> units) implements Unwrapping {
        public Payloads {
            units = List.copyOf(units);
        }
    }

    /** The body does not have this envelope's shape. */
    record NotThisEnvelope() implements Unwrapping { }

    /** The body is an S3 {@code s3:TestEvent} (direct or through SNS): recognised, and to be ignored. */
    record TestEvent(String detail) implements Unwrapping { }

    /** The body has the envelope's shape but what it wraps is unusable (an SNS Message that is not a JSON object). */
    record Broken(RejectionReason reason, String detail) implements Unwrapping { }

    /**
     * One payload and the envelope it came in.
     *
     * @param kind        the envelope kind it was unwrapped with
     * @param payload     what {@code $...} paths read
     * @param envelope    what {@code $envelope...} paths read: the whole body, or the S3 record
     * @param recordIndex the S3 record index, or -1 for the whole message
     */
    record Unit(Envelope kind, JsonNode payload, JsonNode envelope, int recordIndex) { }
}
