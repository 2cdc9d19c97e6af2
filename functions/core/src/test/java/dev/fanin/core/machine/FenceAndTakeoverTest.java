package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The flush guards of the machine (docs/FLUSH.md): only the holder of a claimed window's current fence commits it; a
 * claim whose lease has ended is taken over with a new fence and the same frozen emission; a correction is claimed
 * from CLOSED only, once its delay has passed. Written against the machine's public steps (open, ingest, tick,
 * commit) and the states they return, so it holds whatever the machine looks like inside.
 *
 * <p>The window: the fixture's tumbling minute [T0, T0+60 s) closed by a count of 2, lease 30 s, correction delay
 * 5 s; the watermark trails processing time by 5 s.
 */
class FenceAndTakeoverTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration CORRECTION_DELAY = Duration.ofSeconds(5);

    private final WindowMachine machine = new WindowMachine(PipelineFixture.pipeline().count(2).build(), LEASE);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    /** What the store holds after {@code t} was written over {@code read}. */
    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).as("the step writes").isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    /** Revision 0 claimed by the ingest that brings the second event at T0+2 s (claimer A): fence 1, lease to T0+32 s. */
    private WindowState claimedByA() {
        WindowState open = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        Transition t = machine.ingest(open, List.of(event("e1", T0.toEpochMilli()), event("e2", at(1).toEpochMilli())),
                watermarkAt(at(2)), at(2));
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        return stored(t, open);
    }

    private Transition sweep(WindowState s, Instant now) {
        return machine.tick(s, watermarkAt(now), now);
    }

    private Transition commit(WindowState s, long fence, Instant now) {
        return machine.commit(s, fence, watermarkAt(now), now);
    }

    private WindowState lateEvent(WindowState s, String id, Instant now) {
        Transition t = machine.ingest(s, List.of(event(id, at(10).toEpochMilli())), watermarkAt(now), now);
        assertThat(t.outcomes()).extracting(EventOutcome::disposition).containsExactly(EventOutcome.Disposition.CORRECTION);
        return stored(t, s);
    }

    /**
     * Issue 13, item 7: A claims revision 0 and stalls; B takes over, emits and commits it; a late event makes C claim
     * revision 1; A wakes and commits. A's commit must write nothing: without the fence check it would close revision
     * 1, which nobody had emitted, and the correction would be lost.
     */
    @Test
    void aStalledClaimerWakingAfterATakeoverAndANewClaimCommitsNothing() {
        WindowState a = claimedByA();
        long fenceOfA = a.fence();

        WindowState takenOver = stored(sweep(a, a.leaseUntil()), a);
        WindowState closedByB = stored(commit(takenOver, takenOver.fence(), a.leaseUntil().plusSeconds(1)), takenOver);
        WindowState pending = lateEvent(closedByB, "e3", at(40));
        Transition byC = sweep(pending, at(40).plus(CORRECTION_DELAY));
        assertThat(byC.action()).isEqualTo(Transition.Action.EMIT);
        WindowState claimedByC = stored(byC, pending);
        assertThat(claimedByC.claim().reason()).isEqualTo(CloseReason.LATE_CORRECTION);
        assertThat(claimedByC.claim().revision()).isEqualTo(1);

        Transition lateCommitOfA = commit(claimedByC, fenceOfA, at(46));

        assertThat(lateCommitOfA.write()).isFalse();
        assertThat(lateCommitOfA.next()).isEqualTo(claimedByC);
        assertThat(lateCommitOfA.action()).isEqualTo(Transition.Action.NONE);
        // The correction stays owed to its claimer, who commits it after emitting it.
        WindowState closedByC = stored(commit(claimedByC, claimedByC.fence(), at(47)), claimedByC);
        assertThat(closedByC.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(closedByC.committedRevision()).isEqualTo(1);
    }

    /** Each row: a window as the commit re-reads it, and the fence its committer holds. Only the current fence of a claim commits. */
    static Stream<Arguments> commitsByFence() {
        return Stream.of(
                row("CLAIMED, the claimer's own fence", w -> w.claimed, w -> w.claimed.fence(), true),
                row("CLAIMED by a takeover, the first claimer's fence", w -> w.takenOver, w -> w.claimed.fence(), false),
                row("CLAIMED by a takeover, the taker-over's fence", w -> w.takenOver, w -> w.takenOver.fence(), true),
                row("CLAIMED, a fence never issued", w -> w.claimed, w -> w.claimed.fence() + 1, false),
                row("CLOSED, the fence that committed it (commit repeated)", w -> w.closed, w -> w.closed.fence(), false),
                row("CLOSED after a takeover, the first claimer's fence", w -> w.closed, w -> w.claimed.fence(), false),
                row("CLAIMED correction, the previous revision's fence", w -> w.correction, w -> w.closed.fence(), false),
                row("CLAIMED correction, its own fence", w -> w.correction, w -> w.correction.fence(), true));
    }

    private static Arguments row(String name, Function<Revisions, WindowState> window, Function<Revisions, Long> fence, boolean commits) {
        return Arguments.of(name, window, fence, commits);
    }

    /** One window through claim (fence 1), takeover (2), commit, late event and correction claim (3). */
    private record Revisions(WindowState claimed, WindowState takenOver, WindowState closed, WindowState correction) {
    }

    private Revisions revisions() {
        WindowState claimed = claimedByA();
        WindowState takenOver = stored(sweep(claimed, claimed.leaseUntil()), claimed);
        WindowState closed = stored(commit(takenOver, takenOver.fence(), at(33)), takenOver);
        WindowState pending = lateEvent(closed, "e3", at(40));
        WindowState correction = stored(sweep(pending, at(45)), pending);
        return new Revisions(claimed, takenOver, closed, correction);
    }

    @ParameterizedTest(name = "{0} -> commits={3}")
    @MethodSource("commitsByFence")
    void onlyTheCurrentFenceOfAClaimCommits(String name, Function<Revisions, WindowState> window, Function<Revisions, Long> fence,
                                            boolean commits) {
        Revisions r = revisions();
        WindowState read = window.apply(r);

        Transition t = commit(read, fence.apply(r), at(50));

        assertThat(t.write()).isEqualTo(commits);
        if (commits) {
            assertThat(t.next().status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(t.next().committedRevision()).isEqualTo(read.claim().revision());
            assertThat(t.next().revision()).isEqualTo(read.claim().revision() + 1);
            assertThat(t.next().claim()).isNull();
            assertThat(t.next().leaseUntil()).isNull();
            assertThat(t.next().fence()).as("a commit takes no fence").isEqualTo(read.fence());
        } else {
            assertThat(t.next()).isEqualTo(read);
            assertThat(t.action()).isEqualTo(Transition.Action.NONE);
            assertThat(t.armsTimer()).isFalse();
        }
    }

    @ParameterizedTest(name = "visit {0} ms after the lease ends")
    @ValueSource(longs = {-1, 0, 1, 45_000})
    void aClaimIsTakenOverOnlyOnceItsLeaseHasEnded(long afterLeaseMillis) {
        WindowState a = claimedByA();
        Instant now = a.leaseUntil().plusMillis(afterLeaseMillis);

        Transition t = sweep(a, now);

        if (afterLeaseMillis < 0) {
            assertThat(t.write()).isFalse();
            assertThat(t.action()).isEqualTo(Transition.Action.NONE);
            assertThat(t.next()).isEqualTo(a);
            assertThat(t.listingDue()).as("the sweeper looks again at the lease end").isEqualTo(a.leaseUntil());
            return;
        }
        assertThat(t.write()).isTrue();
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        WindowState next = t.next();
        assertThat(next.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(next.fence()).isEqualTo(a.fence() + 1);
        assertThat(next.leaseUntil()).isEqualTo(now.plus(LEASE));
        assertThat(next.revision()).isEqualTo(a.revision());
        assertThat(next.claim()).as("the frozen emission is unchanged, so is its aggregate id").isEqualTo(a.claim());
        assertThat(t.listingDue()).as("listed at the new lease end, for the next takeover").isEqualTo(next.leaseUntil());
        assertThat(next.dueAt()).isBeforeOrEqualTo(next.leaseUntil());
        assertThat(t.armsTimer()).as("a claim has no timer chain").isFalse();
    }

    @Test
    void aTakerOverThatStallsTooIsTakenOverAgainAndOnlyTheLastFenceCommits() {
        WindowState a = claimedByA();
        WindowState b = stored(sweep(a, a.leaseUntil()), a);
        WindowState c = stored(sweep(b, b.leaseUntil()), b);

        assertThat(List.of(a.fence(), b.fence(), c.fence())).containsExactly(a.fence(), a.fence() + 1, a.fence() + 2);
        assertThat(c.claim()).isEqualTo(a.claim());
        Instant later = c.leaseUntil().minusSeconds(1);
        assertThat(commit(c, a.fence(), later).write()).isFalse();
        assertThat(commit(c, b.fence(), later).write()).isFalse();
        assertThat(stored(commit(c, c.fence(), later), c).committedRevision()).isZero();
    }

    @Test
    void eventsArrivingWhileClaimedAreFoldedInButTheTakeoverReEmitsTheFrozenRevision() {
        WindowState a = claimedByA();
        WindowState withLate = lateEvent(a, "e3", at(10));
        assertThat(withLate.pendingSince()).isEqualTo(at(10));
        assertThat(withLate.lateEvents()).isEqualTo(1);

        WindowState takenOver = stored(sweep(withLate, a.leaseUntil()), withLate);

        assertThat(takenOver.claim()).isEqualTo(a.claim());
        assertThat(takenOver.claim().emission().path("aggregations").path("count").asLong()).isEqualTo(2);
        assertThat(takenOver.aggregates()).isEqualTo(withLate.aggregates()).isNotEqualTo(a.aggregates());
        assertThat(takenOver.pendingSince()).as("the late event still owes a correction").isEqualTo(at(10));
    }

    @ParameterizedTest(name = "commit {0} ms after the correction is due")
    @ValueSource(longs = {-1, 0, 1})
    void aCommitFindingACorrectionDueClaimsItInTheSameWrite(long afterDueMillis) {
        WindowState a = claimedByA();
        WindowState withLate = lateEvent(a, "e3", at(10));
        Instant correctionDue = at(10).plus(CORRECTION_DELAY);
        Instant now = correctionDue.plusMillis(afterDueMillis);

        Transition t = commit(withLate, a.fence(), now);

        assertThat(t.write()).isTrue();
        WindowState next = t.next();
        assertThat(next.committedRevision()).isZero();
        if (afterDueMillis < 0) {
            assertThat(t.action()).isEqualTo(Transition.Action.NONE);
            assertThat(next.status()).isEqualTo(WindowStatus.CLOSED);
            assertThat(next.pendingSince()).isEqualTo(at(10));
            assertThat(t.timerDue()).as("a timer for the correction, exactly").isEqualTo(correctionDue);
            assertThat(next.dueAt()).isAfterOrEqualTo(correctionDue).isBeforeOrEqualTo(correctionDue.plusSeconds(10));
            return;
        }
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(next.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(next.fence()).isEqualTo(a.fence() + 1);
        assertThat(next.claim().revision()).isEqualTo(1);
        assertThat(next.claim().reason()).isEqualTo(CloseReason.LATE_CORRECTION);
        assertThat(next.claim().emission().path("corrects").asText()).isEqualTo(ref.aggregateId(0));
        assertThat(next.claim().emission().path("aggregations").path("count").asLong()).isEqualTo(3);
        assertThat(next.pendingSince()).isNull();
    }

    @ParameterizedTest(name = "visit {0} ms after the correction is due")
    @ValueSource(longs = {-1, 0})
    void aClosedWindowClaimsItsCorrectionOnceTheDelayHasPassed(long afterDueMillis) {
        WindowState a = claimedByA();
        WindowState closed = stored(commit(a, a.fence(), at(3)), a);
        assertThat(closed.dueAt()).as("nothing pending: nothing due").isNull();
        WindowState pending = lateEvent(closed, "e3", at(40));
        Instant now = at(40).plus(CORRECTION_DELAY).plusMillis(afterDueMillis);

        Transition t = sweep(pending, now);

        if (afterDueMillis < 0) {
            assertThat(t.write()).isFalse();
            assertThat(t.next().status()).isEqualTo(WindowStatus.CLOSED);
            return;
        }
        assertThat(t.action()).isEqualTo(Transition.Action.EMIT);
        assertThat(t.next().claim().revision()).isEqualTo(1);
        assertThat(t.next().claim().complete()).as("a correction of a pipeline that cannot miss anything").isTrue();
        assertThat(t.next().claim().deadLetter()).isFalse();
        assertThat(t.next().leaseUntil()).isEqualTo(now.plus(LEASE));
    }

    @Test
    void aClaimedWindowCarriesItsFrozenEmissionAndALeaseBoundedDueTime() {
        WindowState a = claimedByA();

        assertThat(a.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(a.fence()).isEqualTo(1);
        assertThat(a.leaseUntil()).isEqualTo(at(2).plus(LEASE));
        assertThat(a.dueAt()).isEqualTo(a.leaseUntil());
        assertThat(a.timer()).isNull();
        Claim claim = a.claim();
        assertThat(claim.revision()).isZero();
        assertThat(claim.reason()).isEqualTo(CloseReason.COUNT);
        assertThat(claim.complete()).isTrue();
        assertThat(claim.deadLetter()).isFalse();
        assertThat(claim.aggregateId()).isEqualTo(ref.aggregateId(0)).isEqualTo(a.aggregateId());
        assertThat(claim.emission().path("corrects").isNull()).isTrue();
        assertThat(claim.emission().path("closedAt").asText()).isEqualTo("2026-11-29T10:00:02.000Z");
        assertThat(claim.emission().path("firstEventTime").asText()).isEqualTo("2026-11-29T10:00:00.000Z");
        assertThat(claim.emission().path("lastEventTime").asText()).isEqualTo("2026-11-29T10:00:01.000Z");
        assertThat(a.lastArrival()).isEqualTo(at(2));
    }
}
