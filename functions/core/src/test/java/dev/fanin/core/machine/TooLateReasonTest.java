package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A too-late event's reason says which rule made it too late, with the figures, so a user reading the side output
 * can tell a late producer from a window that was cut short (issue 17, item 3).
 */
class TooLateReasonTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    /** Sessions of 30 s gap; the fixture's pipeline lives an hour and allows 30 s of lateness. */
    private final PipelineConfig sessions = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30))).build();
    private final WindowMachine machine = new WindowMachine(sessions, LEASE);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.sessionId(T0.toEpochMilli()));

    @Test
    void pastTheWatermarkTheReasonNamesWatermarkEndAndLateness() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 30_000), T0);
        long watermark = T0.toEpochMilli() + 30_000 + 30_000;

        EventOutcome outcome = machine.ingest(open, List.of(event("e", T0.toEpochMilli())), watermark, T0).outcomes().get(0);

        assertThat(outcome.disposition()).isEqualTo(EventOutcome.Disposition.TOO_LATE);
        assertThat(outcome.detail()).isEqualTo("watermark 2026-11-29T10:01:00.000Z passed window end 2026-11-29T10:00:30.000Z"
                + " + allowed lateness PT30S");
    }

    @Test
    void insideASessionCutByItsLifetimeAfterItBecameFinalTheReasonSaysSo() {
        WindowState s = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 30_000), T0);
        s = machine.ingest(s, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.plusSeconds(10).toEpochMilli())),
                T0.toEpochMilli() - 5_000, T0).next().withVersion(1);
        Instant deadline = s.hardDeadline();
        Transition cut = machine.tick(s, T0.toEpochMilli(), deadline);
        assertThat(cut.next().claim().reason()).isEqualTo(CloseReason.HARD_LIFETIME);
        assertThat(cut.next().bounds()).as("frozen just after the last event")
                .isEqualTo(new Interval(T0.toEpochMilli(), T0.plusSeconds(10).toEpochMilli() + 1));
        WindowState closed = machine.commit(cut.next().withVersion(2), cut.next().fence(), T0.toEpochMilli(), deadline)
                .next().withVersion(3);
        assertThat(closed.status()).isEqualTo(WindowStatus.CLOSED);

        Instant afterFinal = deadline.plusSeconds(31);
        EventOutcome outcome = machine.ingest(closed, List.of(event("e0", T0.plusSeconds(5).toEpochMilli())), T0.toEpochMilli(),
                afterFinal).outcomes().get(0);

        assertThat(outcome.disposition()).isEqualTo(EventOutcome.Disposition.TOO_LATE);
        assertThat(outcome.detail()).isEqualTo("arrived after its session, cut by triggers.maxLifetime, became final at"
                + " 2026-11-29T11:00:30.000Z: hard deadline 2026-11-29T11:00:00.000Z (maxLifetime PT1H) + allowed lateness PT30S");
    }
}
