package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.FieldPath;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads an event's dedupe identity: the configured path's scalar text, or else the message's original id
 * ({@link InboundMessage#originalMessageId}), or for an S3
 * record its object key ({@link ConfigDefaults#S3_EVENT_ID}, the loader's default too: one message carries several
 * records, and a window counts an object once however often it is uploaded or notified).
 */
final class EventIds {

    static final int MAX_EVENT_ID_BYTES = ConfigDefaults.LONGEST_EVENT_ID_BYTES;
    /** How an id longer than {@link #MAX_EVENT_ID_BYTES} is written: this, then its SHA-256 in 64 hex digits. */
    static final String LONG_ID_PREFIX = "sha256:";
    private static final FieldPath S3_OBJECT_KEY = FieldPath.parse(ConfigDefaults.S3_EVENT_ID);

    private EventIds() {
    }

    /**
     * An id is compared by its UTF-8 bytes ({@link dev.fanin.core.aggregate.EventIdDigest}), so it must have them: an
     * unpaired surrogate would make {@code a\ud800} and {@code a\udbff} the same id. Control characters are refused as
     * in keys (an identity holding them is a producer's bug, and each would take six bytes in every sink).
     *
     * @throws IntakeFailure MISSING_EVENT_ID, EVENT_ID_NOT_SCALAR or EVENT_ID_CONTROL_CHARACTERS
     */
    static String resolve(FieldPath path, Unwrapping.Unit unit, String messageId) {
        String id;
        if (path != null) {
            id = text(path.read(unit.payload(), unit.envelope()), path.toString());
        } else if (unit.kind() == Envelope.S3) {
            id = text(S3_OBJECT_KEY.read(unit.payload(), unit.envelope()), ConfigDefaults.S3_EVENT_ID);
        } else {
            id = messageId;
        }
        int control = Scalars.firstControlCharacter(id);
        if (control >= 0) {
            throw new IntakeFailure(RejectionReason.EVENT_ID_CONTROL_CHARACTERS, "event id " + (path == null ? "(default)" : path)
                    + " has " + Scalars.describeCharacterAt(id, control) + ": " + Details.quote(id));
        }
        return Scalars.utf8Length(id) > MAX_EVENT_ID_BYTES ? LONG_ID_PREFIX + sha256Hex(id) : id;
    }

    /**
     * An id past {@link #MAX_EVENT_ID_BYTES} stands for itself by its SHA-256: a valid S3 object key (up to 1,024 bytes)
     * is URL-encoded in its notification, up to three times longer, and an upload must not be dead-lettered for it. The
     * digest keeps the identity (the same long id is always the same event) and the size bounds that sinks and the
     * {@code ids} aggregation are budgeted for.
     */
    private static String sha256Hex(String id) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    private static String text(JsonNode node, String path) {
        if (Scalars.isAbsent(node)) {
            throw new IntakeFailure(RejectionReason.MISSING_EVENT_ID, "event id " + path + " is " + (node.isNull() ? "null" : "absent"));
        }
        if (!Scalars.isScalar(node)) {
            throw new IntakeFailure(RejectionReason.EVENT_ID_NOT_SCALAR, "event id " + path + " is " + Details.kind(node) + " "
                    + Details.value(node) + "; an event id must be a string, number or boolean");
        }
        String text = Scalars.identityText(node);
        if (text.isEmpty()) {
            throw new IntakeFailure(RejectionReason.MISSING_EVENT_ID, "event id " + path + " is the empty string");
        }
        return text;
    }
}
