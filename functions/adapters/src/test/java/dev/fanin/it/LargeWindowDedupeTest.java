package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.BatchResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 item 1: with bounded loads a container reads only the slices sealed since it last saw a window, and a
 * redelivered event sealed long ago is still a duplicate, in the container that holds the window's slices and in one
 * that has never seen it, for a time window and for a live session.
 */
class LargeWindowDedupeTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    @Test
    void anEventSealedLongAgoIsStillADuplicateInAWarmAndAColdContainerOfATimeWindow() {
        redeliveredLongAfter(FaninStack.rawPipeline(T0.plusSeconds(30), "window: {type: tumbling, size: 1h}", "triggers: {maxLifetime: 2h}"));
    }

    @Test
    void anEventSealedLongAgoIsStillADuplicateInAWarmAndAColdContainerOfALiveSession() {
        redeliveredLongAfter(FaninStack.rawPipeline(T0.plusSeconds(30), "window: {type: session, gap: 10m}", "triggers: {maxLifetime: 2h}"));
    }

    private static void redeliveredLongAfter(FaninStack stack) {
        Process warm = stack.process();
        // Ten batches of 40 new events: each write spills its tail to a slice (more than 32 ids).
        for (int batch = 0; batch < 10; batch++) {
            List<InboundMessage> messages = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                messages.add(stack.message("a", batch + "-" + i, T0.plusSeconds(batch)));
            }
            BatchResult r = warm.ingest().handle(messages);
            assertThat(r.failedMessageIds()).isEmpty();
            assertThat(r.eventsAccepted()).isEqualTo(40);
        }

        BatchResult again = warm.ingest().handle(List.of(stack.message("a", "0-0", T0), stack.message("a", "10-0", T0.plusSeconds(10))));
        BatchResult elsewhere = stack.process().ingest().handle(List.of(stack.message("a", "0-1", T0), stack.message("a", "10-0", T0.plusSeconds(10))));

        assertThat(again.duplicates()).as("warm: the first slice's event").isEqualTo(1);
        assertThat(again.eventsAccepted()).isEqualTo(1);
        assertThat(elsewhere.duplicates()).as("cold: the first slice's event, and the one the warm container just added").isEqualTo(2);
        assertThat(elsewhere.eventsAccepted()).isZero();
    }
}
