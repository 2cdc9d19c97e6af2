package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy.AtDeadline;
import dev.fanin.core.config.IncompletePolicy.Mode;
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
 * Under {@code incomplete: hold, atDeadline: dead-letter}, a revision dead-lettered at its deadline never reached the
 * target: a correction of it that is still incomplete is dead-lettered too (it reached the target, correcting a
 * revision the target never had), and one that completes the window goes to the target. A revision the target did
 * receive (an operator's release) is corrected at the target as any other, whatever the policy.
 */
class DeadLetteredCorrectionTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long START = T0.toEpochMilli();
    private static final long END = START + 60_000;
    private static final long WATERMARK = END + 600_000;
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(START));
    private final WindowMachine m = new WindowMachine(PipelineFixture.pipeline().expected(new ExpectedSpec(4, null, null, 0))
            .incomplete(Mode.HOLD, AtDeadline.DEAD_LETTER).allowedLateness(Duration.ofHours(2)).build(), Duration.ofSeconds(30));

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    /** Two of four events, held incomplete. */
    private WindowState held() {
        WindowState open = m.open(ref, new Interval(START, END), T0);
        WindowState two = stored(m.ingest(open, List.of(event("e1", START), event("e2", START + 1)), START, T0), open);
        WindowState held = stored(m.tick(two, WATERMARK, T0.plusSeconds(120)), two);
        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        return held;
    }

    private Claim correctionWith(WindowState closed, Instant at, String... ids) {
        List<dev.fanin.core.event.Event> events = java.util.Arrays.stream(ids).map(id -> event(id, START + 2)).toList();
        WindowState pending = stored(m.ingest(closed, events, WATERMARK, at), closed);
        return m.tick(pending, WATERMARK, at.plusSeconds(60)).next().claim();
    }

    @Test
    void aCorrectionOfARevisionDeadLetteredAtItsDeadlineIsDeadLetteredWhileIncomplete() {
        WindowState held = held();
        WindowState claimed = stored(m.tick(held, WATERMARK, held.hardDeadline()), held);
        assertThat(claimed.claim().deadLetter()).as("r0 dead-lettered at the deadline").isTrue();
        WindowState closed = stored(m.commit(claimed, claimed.fence(), WATERMARK, held.hardDeadline().plusSeconds(1)), claimed);
        assertThat(closed.committedDeadLettered()).isTrue();
        assertThat(WindowCodec.decode(WindowCodec.encode(closed), m.config()).committedDeadLettered()).as("stored").isTrue();

        Claim incomplete = correctionWith(closed, held.hardDeadline().plusSeconds(2), "e3");
        Claim complete = correctionWith(closed, held.hardDeadline().plusSeconds(2), "e3", "e4");

        assertThat(incomplete.reason()).isEqualTo(CloseReason.LATE_CORRECTION);
        assertThat(incomplete.deadLetter()).as("3 of 4: dead-lettered, as the revision it corrects").isTrue();
        assertThat(complete.complete()).isTrue();
        assertThat(complete.deadLetter()).as("complete: it goes to the target").isFalse();
    }

    @Test
    void aCorrectionOfARevisionTheTargetReceivedGoesToTheTarget() {
        WindowState held = held();
        WindowState released = stored(m.closeByOperator(held, "release", WATERMARK, T0.plusSeconds(130)), held);
        WindowState closed = stored(m.commit(released, released.fence(), WATERMARK, T0.plusSeconds(131)), released);

        Claim correction = correctionWith(closed, T0.plusSeconds(140), "e3");

        assertThat(closed.committedDeadLettered()).isFalse();
        assertThat(correction.complete()).isFalse();
        assertThat(correction.deadLetter()).as("before the deadline, of a revision the target has").isFalse();
    }
}
