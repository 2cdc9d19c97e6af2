package dev.fanin.aws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 based hashing that gives the same answer in every JVM and every deployment (unlike
 * {@link String#hashCode()} of arbitrary objects or {@code Object.hashCode}), so shard numbers written by one
 * function are found by another.
 */
public final class StableHash {

    private StableHash() { }

    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** 64 lowercase hex characters. */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256(text));
    }

    /**
     * A shard in {@code [0, shards)} from the first four bytes of the SHA-256 of {@code text}.
     *
     * @throws IllegalArgumentException when {@code shards < 1}
     */
    public static int shard(String text, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, was " + shards);
        }
        byte[] digest = sha256(text);
        long unsigned = ((digest[0] & 0xFFL) << 24) | ((digest[1] & 0xFFL) << 16) | ((digest[2] & 0xFFL) << 8)
                | (digest[3] & 0xFFL);
        return (int) (unsigned % shards);
    }
}
