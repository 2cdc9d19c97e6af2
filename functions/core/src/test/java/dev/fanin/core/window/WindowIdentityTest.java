package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Window ids, aggregate ids and window kinds: the names a window goes by in the store, the due buckets and the output. */
class WindowIdentityTest {

    @Test
    void idsArePaddedSoTheySortByStart() {
        assertThat(WindowRef.timeWindowId(60_000)).isEqualTo("T000000000060000");
        assertThat(WindowRef.sessionId(5)).isEqualTo("S000000000000005");
        assertThat(WindowRef.timeWindowId(9_999)).isLessThan(WindowRef.timeWindowId(10_000));
    }

    @Test
    void anAggregateIdLengthPrefixesItsPartsSoNoTwoWindowsShareOne() {
        WindowRef ref = new WindowRef("p", "a/b", "T000000000000000");

        assertThat(ref.aggregateId(2)).isEqualTo("1:p/3:a/b/T000000000000000/r2");
        assertThat(new WindowRef("p/3:a", "b", "T000000000000000").aggregateId(2)).isNotEqualTo(ref.aggregateId(2));
    }

    @Test
    void theWholeKeyStandsForEveryWindowOfAKey() {
        WindowRef whole = WindowRef.wholeKey("p", "k");

        assertThat(whole).isEqualTo(new WindowRef("p", "k", "*"));
        assertThat(whole.isWholeKey()).isTrue();
        assertThat(new WindowRef("p", "k", WindowRef.sessionId(1)).isWholeKey()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"TUMBLING, tumbling, false", "SLIDING, sliding, false", "SESSION, session, true"})
    void kindsByTheirSpecAndWireName(WindowKind kind, String wireName, boolean session) {
        WindowSpec spec = switch (kind) {
            case TUMBLING -> new WindowSpec.Tumbling(Duration.ofSeconds(60), Duration.ZERO);
            case SLIDING -> new WindowSpec.Sliding(Duration.ofSeconds(60), Duration.ofSeconds(30));
            case SESSION -> new WindowSpec.Session(Duration.ofSeconds(30));
        };

        assertThat(WindowKind.of(spec)).isEqualTo(kind);
        assertThat(kind.wireName()).isEqualTo(wireName);
        assertThat(kind.isSession()).isEqualTo(session);
    }

    @Test
    void intervalsAreHalfOpenAndNeverEmpty() {
        Interval i = new Interval(0, 5);

        assertThat(i.contains(0)).isTrue();
        assertThat(i.contains(4)).isTrue();
        assertThat(i.contains(5)).isFalse();
        assertThat(i.overlaps(new Interval(5, 9))).as("touching").isFalse();
        assertThat(new Interval(5, 9).overlaps(i)).isFalse();
        assertThat(i.overlaps(new Interval(4, 9))).isTrue();
        assertThat(new Interval(-3, 1).overlaps(i)).isTrue();
        assertThat(i.lengthMillis()).isEqualTo(5);
        assertThat(new Interval(0, 1).lengthMillis()).isEqualTo(1);
        assertThatThrownBy(() -> new Interval(5, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
