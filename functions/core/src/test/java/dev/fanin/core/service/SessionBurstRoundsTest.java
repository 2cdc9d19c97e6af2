package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A burst on one session key many times the size bound is counted in one invocation, round after round (each cuts a
 * session at the bound and the next continues it; SessionBurstOverBoundTest), within the invocation's limits (a read
 * of that change): the rounds stop at the ingest deadline, handing the rest back, and each cut session is committed
 * before the next round, so the live item never holds more than one cut session's frozen aggregate.
 */
class SessionBurstRoundsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final TestClock clock = new TestClock(T0.plusSeconds(60));

    private static List<InboundMessage> burst(int n, Instant at, String idPad) {
        List<InboundMessage> burst = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            burst.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i + idPad, T0.plusMillis(i)), at, 1));
        }
        return burst;
    }

    /** Each live write takes a second; the invocation's deadline is 1.5 s after its start. */
    @Test
    void roundsStopAtTheIngestDeadline() {
        Instant[] deadline = {clock.instant().plusMillis(1_500)};
        int[] countingWritesStartedPastTheDeadline = {0};
        ForwardingWindowStore slow = new ForwardingWindowStore(new InMemoryWindowStore(4)) {
            @Override
            public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
                long before = previous.sessions().stream().mapToLong(w -> w.eventIds().size()).sum();
                long after = next.sessions().stream().mapToLong(w -> w.eventIds().size()).sum();
                if (after > before && !clock.instant().isBefore(deadline[0])) {
                    countingWritesStartedPastTheDeadline[0]++;
                }
                clock.advance(Duration.ofSeconds(1));
                return super.replaceLive(previous, next);
            }
        };
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
                "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 7, onOverflow: split}\n"),
                slow, new RecordingEmitter(), new RecordingTimers(), clock);
        BatchResult r = new IngestService(engine).handle(burst(40, clock.instant(), ""), deadline[0]);

        assertThat(countingWritesStartedPastTheDeadline[0]).as("live writes counting events, started at or after the deadline")
                .isZero();
        assertThat(r.failedMessageIds()).as("handed back INGEST_DEADLINE").isNotEmpty();
    }

    /**
     * LiveSessions#MAX_LIVE_STATE_BYTES: "the item holds at most about twice this plus one batch's growth" (a claimed
     * session carries its frozen aggregate until its commit, in the flush after the batch). Every round cuts one more
     * session that stays in the item, claimed, until that flush.
     */
    @Test
    void theLiveItemDoesNotAccumulateTheCutSessionsOfEveryRound() {
        long[] most = {0};
        int[] mostClaimed = {0};
        ForwardingWindowStore watching = new ForwardingWindowStore(new InMemoryWindowStore(4)) {
            @Override
            public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
                long bytes = 0;
                int claimed = 0;
                for (StoredWindow w : next.sessions()) {
                    bytes += w.state().getBytes(StandardCharsets.UTF_8).length;
                    bytes += w.eventIds().size() * 16L;
                    claimed += w.status() == WindowStatus.CLAIMED ? 1 : 0;
                }
                most[0] = Math.max(most[0], bytes);
                mostClaimed[0] = Math.max(mostClaimed[0], claimed);
                return super.replaceLive(previous, next);
            }
        };
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 10m}", "2h",
                "{outOfOrderness: 1h, idleAfter: 3h}", "    bounds: {maxEventsPerWindow: 100, onOverflow: split}\n"
                        + "    aggregations: [{name: ids, type: distinct-ids}]\n"),
                watching, new RecordingEmitter(), new RecordingTimers(), clock);

        BatchResult r = new IngestService(engine).handle(burst(2_000, clock.instant(), "-" + "x".repeat(200)));
        assertThat(r.failedMessageIds()).as("all counted in this delivery").isEmpty();

        assertThat(most[0]).as("bytes of state in one write of the live item (DynamoDB item: 400 KB)")
                .isLessThanOrEqualTo(2 * LiveSessions.MAX_LIVE_STATE_BYTES + 60 * 1024);
        assertThat(mostClaimed[0]).as("claimed (cut) sessions in one write of the live item").isLessThanOrEqualTo(2);
    }
}
