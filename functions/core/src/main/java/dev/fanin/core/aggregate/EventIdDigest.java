package dev.fanin.core.aggregate;

import dev.fanin.core.text.SinkText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * The dedupe identity a window stores for each accepted event: the first 96 bits of SHA-256 of the event id's UTF-8
 * bytes (so the id must be well-formed UTF-16; intake refuses one with an unpaired surrogate),
 * as 16 characters of URL-safe base64 without padding. Fixed size whatever the id's length; collisions are
 * negligible at the bounded number of events one window holds (about 2^-96 per pair).
 */
public final class EventIdDigest {

    public static final int LENGTH = 16;
    /** What {@link #tooLate} appends: no digest has it, so one set holds both verdicts apart. */
    private static final String TOO_LATE_MARK = "!";

    private EventIdDigest() {
    }

    /** @throws IllegalArgumentException when the id has an unpaired surrogate (no UTF-8 form; intake refuses such ids) */
    public static String of(String eventId) {
        int surrogate = SinkText.firstUnpairedSurrogate(eventId);
        if (surrogate >= 0) {
            // getBytes would turn it into "?": "a\ud800", "a\udbff" and "a?" would be one id.
            throw new IllegalArgumentException("event id has an unpaired UTF-16 surrogate at index " + surrogate);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(eventId.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(hash, 12));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    /**
     * What a window stores for an event it recorded too late instead of counting it: the digest, marked. A later copy
     * of the event that meets it is reported too late again, never counted ({@code EventAdmission}).
     */
    public static String tooLate(String digest) {
        return digest + TOO_LATE_MARK;
    }

    /** Whether a stored id is a too-late verdict ({@link #tooLate}) rather than a counted event's digest. */
    public static boolean isTooLate(String stored) {
        return stored.endsWith(TOO_LATE_MARK);
    }
}
