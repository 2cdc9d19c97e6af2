package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventSourceBatchesTest {

    private static Delivery at(String id, long millis) {
        return new Delivery(id, "{}", Map.of(), millis, millis, 0, 0, false);
    }

    private static List<String> ids(EventSourceBatches.Batch<Delivery> b) {
        return b.deliveries().stream().map(Delivery::messageId).toList();
    }

    @Test
    void withoutAWindowABatchIsTheMessagesVisibleAtTheSameInstant() {
        EventSourceBatches.Batch<Delivery> b = EventSourceBatches.next(List.of(at("b", 1000), at("a", 1000), at("c", 1001)), 10, 0).orElseThrow();
        assertThat(b.atMillis()).isEqualTo(1000);
        assertThat(ids(b)).containsExactly("b", "a");
    }

    @Test
    void aWindowCollectsUpToItsEndInclusiveAndIsHandedOverWhenItEnds() {
        List<Delivery> pending = List.of(at("a", 1000), at("b", 1999), at("c", 2000), at("d", 2001));
        EventSourceBatches.Batch<Delivery> b = EventSourceBatches.next(pending, 10, 1000).orElseThrow();
        assertThat(ids(b)).containsExactly("a", "b", "c");
        assertThat(b.atMillis()).isEqualTo(2000);
    }

    @Test
    void aFullBatchIsHandedOverWhenItsLastMemberArrives() {
        List<Delivery> pending = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            pending.add(at("m" + i, 1000 + i));
        }
        EventSourceBatches.Batch<Delivery> b = EventSourceBatches.next(pending, 10, 60_000).orElseThrow();
        assertThat(b.deliveries()).hasSize(10);
        assertThat(b.atMillis()).isEqualTo(1009);
    }

    @Test
    void nothingPendingNoBatch() {
        assertThat(EventSourceBatches.next(List.of(), 10, 0)).isEmpty();
    }

    @Test
    void sweepTicksAreMinuteBoundaries() {
        assertThat(Replay.ceilMinute(60_000)).isEqualTo(60_000);
        assertThat(Replay.ceilMinute(60_001)).isEqualTo(120_000);
        assertThat(Replay.ceilMinute(59_999)).isEqualTo(60_000);
    }
}
