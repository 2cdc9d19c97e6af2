package dev.fanin.aws.dynamodb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The opaque due-page cursor: the index query's {@code LastEvaluatedKey} ({@code pk}, {@code sk}, {@code due};
 * {@code dsh} is the queried shard) as URL-safe base64 of length-prefixed fields, so keys with any character
 * survive.
 */
final class DueCursor {

    private static final int FORMAT = 1;

    private DueCursor() { }

    static String encode(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(lastEvaluatedKey.get(WindowItemCodec.PK).s());
            out.writeUTF(lastEvaluatedKey.get(WindowItemCodec.SK).s());
            out.writeLong(Long.parseLong(lastEvaluatedKey.get(WindowItemCodec.DUE).n()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    /** @throws IllegalArgumentException for a cursor this class did not produce */
    static Map<String, AttributeValue> decode(String cursor, String dueShardKey) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(cursor)))) {
            if (in.readByte() != FORMAT) {
                throw new IllegalArgumentException("unknown due cursor format: " + cursor);
            }
            Map<String, AttributeValue> key = new HashMap<>();
            key.put(WindowItemCodec.PK, WindowItemCodec.s(in.readUTF()));
            key.put(WindowItemCodec.SK, WindowItemCodec.s(in.readUTF()));
            key.put(WindowItemCodec.DUE, WindowItemCodec.n(in.readLong()));
            key.put(WindowItemCodec.DUE_SHARD, WindowItemCodec.s(dueShardKey));
            return key;
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a due cursor: " + cursor, e);
        }
    }
}
