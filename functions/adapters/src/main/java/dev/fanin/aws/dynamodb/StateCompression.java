package dev.fanin.aws.dynamodb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The window state attribute, deflated when that makes it smaller. DynamoDB charges a write unit per started KB of the
 * item, and the state (accumulators, samples of whole payloads) is most of a head item: its JSON repeats field names
 * and compresses well, which keeps most heads under 1 KB. It is deflated at the best compression: on a claimed
 * session's state (its aggregates, then the frozen emission repeating them) that is about 10% fewer bytes than the
 * fastest level for about 2 us more, and 1 KB is where a write unit starts. Short states stay plain text (readable in
 * the console); either form reads back, whatever level wrote it.
 */
final class StateCompression {

    /** Below this many bytes deflating cannot save a write unit worth its CPU. */
    static final int MIN_BYTES = 384;

    private StateCompression() {
    }

    static AttributeValue encode(String state) {
        byte[] plain = state.getBytes(StandardCharsets.UTF_8);
        if (plain.length < MIN_BYTES) {
            return AttributeValue.fromS(state);
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            deflater.setInput(plain);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 2);
            byte[] buffer = new byte[1024];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            byte[] packed = out.toByteArray();
            return packed.length < plain.length ? AttributeValue.fromB(SdkBytes.fromByteArray(packed)) : AttributeValue.fromS(state);
        } finally {
            deflater.end();
        }
    }

    static String decode(AttributeValue value) {
        if (value.s() != null) {
            return value.s();
        }
        byte[] packed = value.b().asByteArray();
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(packed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(packed.length * 3);
            byte[] buffer = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalStateException("window state attribute is truncated or not deflated");
                }
                out.write(buffer, 0, n);
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (DataFormatException e) {
            throw new IllegalStateException("window state attribute is not valid deflate data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
