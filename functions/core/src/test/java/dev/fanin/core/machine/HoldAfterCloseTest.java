package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static dev.fanin.core.trigger.PipelineFixture.path;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy.AtDeadline;
import dev.fanin.core.config.IncompletePolicy.Mode;
import dev.fanin.core.machine.EventOutcome.Disposition;
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
 * Under {@code incomplete: hold} the policy also governs a closed window's next revision (docs/SEMANTICS.md,
 * "Completeness"): a correction of a revision dead-lettered at its deadline is dead-lettered too while incomplete (it
 * reached the target, correcting a revision the target never had), and the incomplete revision of a split's
 * continuation that a visit closed empty is held to its deadline, as it is when its event comes before that visit
 * (it fired WATERMARK complete=false at once: held or fired by the timing of a sweep).
 */
class HoldAfterCloseTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long START = T0.toEpochMilli();
    private static final long END = START + 60_000;
    private static final Duration LEASE = Duration.ofSeconds(30);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(START));

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    @Test
    void aCorrectionOfARevisionDeadLetteredAtItsDeadlineIsDeadLetteredWhileIncomplete() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().expected(new ExpectedSpec(4, null, null, 0))
                .incomplete(Mode.HOLD, AtDeadline.DEAD_LETTER).allowedLateness(Duration.ofHours(2)).build(), LEASE);
        WindowState open = m.open(ref, new Interval(START, END), T0);
        WindowState two = stored(m.ingest(open, List.of(event("e1", START), event("e2", START + 1)), START, T0), open);
        long watermark = END + 600_000;
        WindowState held = stored(m.tick(two, watermark, T0.plusSeconds(120)), two);
        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        WindowState claimed = stored(m.tick(held, watermark, held.hardDeadline()), held);
        assertThat(claimed.claim().deadLetter()).as("r0 dead-lettered at the deadline").isTrue();
        WindowState closed = stored(m.commit(claimed, claimed.fence(), watermark, held.hardDeadline().plusSeconds(1)), claimed);

        Transition late = m.ingest(closed, List.of(event("e3", START + 2)), watermark, held.hardDeadline().plusSeconds(2));
        assertThat(late.outcomes()).extracting(EventOutcome::disposition).containsExactly(Disposition.CORRECTION);
        WindowState pending = stored(late, closed);
        Claim correction = m.tick(pending, watermark, held.hardDeadline().plusSeconds(60)).next().claim();

        assertThat(correction.reason()).isEqualTo(CloseReason.LATE_CORRECTION);
        assertThat(correction.complete()).isFalse();
        assertThat(correction.deadLetter()).as("3 of 4: dead-lettered, as the revision it corrects").isTrue();
        WindowState fourth = stored(m.ingest(pending, List.of(event("e4", START + 3)), watermark, held.hardDeadline().plusSeconds(3)), pending);
        Claim complete = m.tick(fourth, watermark, held.hardDeadline().plusSeconds(60)).next().claim();
        assertThat(complete.complete()).isTrue();
        assertThat(complete.deadLetter()).as("complete: it goes to the target").isFalse();
    }

    /** Hold + dead-letter, 3 members expected, 3 events a revision: members 0, 0, 1 fill r0, which splits (flagged). */
    private final WindowMachine splitting = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(3)
            .expected(new ExpectedSpec(3, null, path("$.m"), 0)).incomplete(Mode.HOLD, AtDeadline.DEAD_LETTER).build(), LEASE);

    private WindowState splitAndCommitted() {
        WindowState open = splitting.open(ref, new Interval(START, END), T0);
        WindowState claimed = stored(splitting.ingest(open, List.of(event("a", START, "{\"m\":0}"), event("b", START + 1, "{\"m\":0}"),
                event("c", START + 2, "{\"m\":1}")), START - 5_000, T0), open);
        assertThat(claimed.claim().reason()).isEqualTo(CloseReason.SIZE_LIMIT);
        WindowState continuation = stored(splitting.commit(claimed, claimed.fence(), START - 5_000, T0.plusSeconds(1)), claimed);
        assertThat(continuation.status()).isEqualTo(WindowStatus.OPEN);
        return continuation;
    }

    @Test
    void theIncompleteRevisionOfAContinuationClosedEmptyIsHeldToItsDeadlineAsBeforeThatClose() {
        WindowState continuation = splitAndCommitted();
        WindowState closedEmpty = stored(splitting.tick(continuation, END, T0.plusSeconds(65)), continuation);
        assertThat(closedEmpty.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(closedEmpty.holdsSlot()).isFalse();
        WindowState pending = stored(splitting.ingest(closedEmpty, List.of(event("d", START + 3, "{\"m\":2}")), END + 1_000,
                T0.plusSeconds(66)), closedEmpty);

        WindowState held = stored(splitting.tick(pending, END + 1_000, T0.plusSeconds(80)), pending);

        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        assertThat(held.holdsSlot()).as("its slot was given back at the first close").isFalse();
        Claim atDeadline = splitting.tick(held, END + 1_000, held.hardDeadline()).next().claim();
        assertThat(atDeadline.reason()).isEqualTo(CloseReason.HARD_LIFETIME);
        assertThat(atDeadline.deadLetter()).isTrue();
        assertThat(atDeadline.revision()).isEqualTo(1);
    }
}
