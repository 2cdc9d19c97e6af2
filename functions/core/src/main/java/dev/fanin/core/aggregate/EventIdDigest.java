package dev.fanin.core.aggregate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * The dedupe identity a window stores for each accepted event: the first 96 bits of SHA-256 of the event id (UTF-8),
 * as 16 characters of URL-safe base64 without padding. Fixed size whatever the id's length; collisions are
 * negligible at the bounded number of events one window holds (about 2^-96 per pair).
 */
public final class EventIdDigest {

    public static final int LENGTH = 16;

    private EventIdDigest() {
    }

    public static String of(String eventId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(eventId.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(hash, 12));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
