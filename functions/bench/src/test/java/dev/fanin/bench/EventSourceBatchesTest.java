package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventSourceBatchesTest {

    private record Message(String id, long visibleAtMillis) { }

    private static Message at(String id, long millis) {
        return new Message(id, millis);
    }

    private static Optional<EventSourceBatches.Batch<Message>> next(List<Message> pending, int batchSize, long windowMillis) {
        return EventSourceBatches.next(pending, Message::visibleAtMillis, batchSize, windowMillis);
    }

    private static List<String> ids(EventSourceBatches.Batch<Message> b) {
        return b.deliveries().stream().map(Message::id).toList();
    }

    @Test
    void withoutAWindowABatchIsTheMessagesVisibleAtTheSameInstant() {
        EventSourceBatches.Batch<Message> b = next(List.of(at("b", 1000), at("a", 1000), at("c", 1001)), 10, 0).orElseThrow();
        assertThat(b.atMillis()).isEqualTo(1000);
        assertThat(ids(b)).containsExactly("b", "a");
    }

    @Test
    void aWindowCollectsUpToItsEndInclusiveAndIsHandedOverWhenItEnds() {
        List<Message> pending = List.of(at("a", 1000), at("b", 1999), at("c", 2000), at("d", 2001));
        EventSourceBatches.Batch<Message> b = next(pending, 10, 1000).orElseThrow();
        assertThat(ids(b)).containsExactly("a", "b", "c");
        assertThat(b.atMillis()).isEqualTo(2000);
    }

    @Test
    void aFullBatchIsHandedOverWhenItsLastMemberArrives() {
        List<Message> pending = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            pending.add(at("m" + i, 1000 + i));
        }
        EventSourceBatches.Batch<Message> b = next(pending, 10, 60_000).orElseThrow();
        assertThat(b.deliveries()).hasSize(10);
        assertThat(b.atMillis()).isEqualTo(1009);
    }

    @Test
    void nothingPendingNoBatch() {
        assertThat(next(List.of(), 10, 0)).isEmpty();
    }
}
