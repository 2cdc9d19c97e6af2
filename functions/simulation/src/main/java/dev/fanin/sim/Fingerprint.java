package dev.fanin.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The content of an aggregate event apart from {@code emittedAt}, as a SHA-256 digest (compact for long runs). */
final class Fingerprint {

    private Fingerprint() {
    }

    static String of(ObjectNode aggregate) {
        ObjectNode copy = aggregate.deepCopy();
        copy.remove("emittedAt");
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(copy.toString().getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
