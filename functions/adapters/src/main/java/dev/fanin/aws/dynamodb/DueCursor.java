package dev.fanin.aws.dynamodb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The opaque due-page cursor: the bucket query's {@code LastEvaluatedKey} (the bucket's sort key; the partition is
 * the queried shard's) as URL-safe base64.
 */
final class DueCursor {

    private static final int FORMAT = 2;

    private DueCursor() { }

    static String encode(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(lastEvaluatedKey.get(WindowItemCodec.SK).s());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    /** @throws IllegalArgumentException for a cursor this class did not produce */
    static Map<String, AttributeValue> decode(String cursor, String bucketPk) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(cursor)))) {
            if (in.readByte() != FORMAT) {
                throw new IllegalArgumentException("unknown due cursor format: " + cursor);
            }
            return Map.of(WindowItemCodec.PK, WindowItemCodec.s(bucketPk), WindowItemCodec.SK, WindowItemCodec.s(in.readUTF()));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a due cursor: " + cursor, e);
        }
    }
}
