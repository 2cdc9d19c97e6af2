package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A message whose too-late events were all recorded and reported is not failed for another message's failure (a review
 * of the recording: a message failed earlier in the batch for another reason, here another sliding window of the same
 * event whose store was unavailable, failed every message of a window whose reports had all been sent).
 */
class TooLateReportFailureTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = InMemoryEngines.rawPipeline("{type: sliding, size: 2m, slide: 1m}", "30m",
            "{outOfOrderness: 10s, idleAfter: 5m}", "    allowedLateness: 1m\n    aggregations: [{name: n, type: count}]\n");

    private final TestClock clock = new TestClock(T0);

    @Test
    void aMessageWhoseRecordsWereAllSentIsNotFailedForAnotherMessagesFailure() {
        String lateWindow = WindowRef.timeWindowId(T0.plusSeconds(60).toEpochMilli()); // [10:01, 10:03)
        boolean[] unavailable = {false};
        FaninEngine engine = InMemoryEngines.of(YAML, new ForwardingWindowStore(new InMemoryWindowStore(4)) {
            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                if (unavailable[0] && next.ref().windowId().equals(lateWindow)) {
                    throw new StoreUnavailableException("throttled", null);
                }
                return super.replace(previous, next);
            }
        }, new RecordingEmitter(), new RecordingTimers(), clock);
        RecordingSideOutput side = (RecordingSideOutput) engine.ports().sideOutput();
        IngestService ingest = new IngestService(engine);

        // e0 at 10:01:00 stores [10:00, 10:02) and [10:01, 10:03).
        clock.set(T0.plusSeconds(65));
        ingest.handle(List.of(message("m0", "a", "e0", T0.plusSeconds(60))));
        // Another key takes the watermark to 10:03:30: past [10:00, 10:02) + 1m, not [10:01, 10:03) + 1m.
        clock.set(T0.plus(Duration.ofMinutes(3)).plusSeconds(40));
        ingest.handle(List.of(message("mx", "b", "x", T0.plus(Duration.ofMinutes(3)).plusSeconds(40))));

        unavailable[0] = true;
        clock.advance(Duration.ofSeconds(5));
        BatchResult r = ingest.handle(List.of(
                message("M", "a", "e1", T0.plusSeconds(90)),        // [10:00,10:02) too late; [10:01,10:03) late, store unavailable
                message("N", "a", "e3", T0.plus(Duration.ofMinutes(2)).plusSeconds(30)), // [10:01,10:03) (unavailable) and [10:02,10:04)
                message("Q", "a", "e5", T0.plus(Duration.ofMinutes(2)).plusSeconds(40)), // the same: [10:01,10:03) is the busiest
                message("P", "a", "e4", T0.plusSeconds(10))));      // [09:59,10:01) and [10:00,10:02): too late for both

        assertThat(r.failedMessageIds()).as("M and N met the unavailable store").contains("M", "N");
        assertThat(side.sideRecords()).as("every side-output send succeeded").isNotEmpty();
        assertThat(r.failedMessageIds()).as("P failed nowhere: all its records were sent").doesNotContain("P");
    }

    private InboundMessage message(String id, String key, String eventId, Instant eventTime) {
        String body = "{\"k\":\"" + key + "\",\"id\":\"" + eventId + "\",\"t\":" + eventTime.toEpochMilli() + "}";
        return new InboundMessage(id, body, 1, clock.instant(), clock.instant(), Map.of());
    }
}
