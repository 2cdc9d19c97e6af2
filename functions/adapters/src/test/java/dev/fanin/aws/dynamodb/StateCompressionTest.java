package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import org.junit.jupiter.api.Test;

class StateCompressionTest {

    private static String samples(int n) {
        StringBuilder b = new StringBuilder("{\"k\":\"SESSION\",\"a\":{\"samples\":[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append("{\"eventId\":\"a251e5a1-a47e-4e55-8b9c-c95ea8334").append(100 + i)
                    .append("\",\"eventTime\":\"2026-11-29T17:17:0").append(i % 10).append(".000Z\",\"value\":{\"service\":\"payments-api\","
                            + "\"resource\":\"i-0a0").append(i).append("\",\"severity\":\"HIGH\",\"message\":\"CPU above 90% for 5 minutes\"}}");
        }
        return b.append("]}}").toString();
    }

    @Test
    void shortStatesStayReadableText() {
        AttributeValue v = StateCompression.encode("{\"k\":\"TUMBLING\"}");
        assertThat(v.s()).isEqualTo("{\"k\":\"TUMBLING\"}");
        assertThat(StateCompression.decode(v)).isEqualTo("{\"k\":\"TUMBLING\"}");
    }

    @Test
    void aStateWithPayloadSamplesIsDeflatedBelowHalfAndReadsBackExactly() {
        String state = samples(5);
        AttributeValue v = StateCompression.encode(state);
        assertThat(v.b()).isNotNull();
        assertThat(v.b().asByteArray().length).isLessThan(state.length() / 2);
        assertThat(StateCompression.decode(v)).isEqualTo(state);
    }

    @Test
    void aStateIsDeflatedSmallerThanTheFastestLevelWouldWriteIt() {
        String state = samples(5);

        assertThat(StateCompression.encode(state).b().asByteArray().length).isLessThan(deflatedFastest(state).length);
    }

    @Test
    void aStateAnEarlierVersionDeflatedAtTheFastestLevelReadsBack() {
        String state = samples(5);

        assertThat(StateCompression.decode(AttributeValue.fromB(SdkBytes.fromByteArray(deflatedFastest(state))))).isEqualTo(state);
    }

    private static byte[] deflatedFastest(String state) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
        deflater.setInput(state.getBytes(StandardCharsets.UTF_8));
        deflater.finish();
        byte[] buffer = new byte[state.length() * 2];
        int n = 0;
        while (!deflater.finished()) {
            n += deflater.deflate(buffer, n, buffer.length - n);
        }
        deflater.end();
        return Arrays.copyOf(buffer, n);
    }

    @Test
    void unicodeRoundTrips() {
        String state = samples(3).replace("payments-api", "paiements-\u00e9t\u00e9-\ud83d\ude80");
        assertThat(StateCompression.decode(StateCompression.encode(state))).isEqualTo(state);
    }

    @Test
    void garbageIsAClearError() {
        AttributeValue bad = AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2, 3, 4, 5}));
        assertThatThrownBy(() -> StateCompression.decode(bad)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("window state attribute");
    }
}
