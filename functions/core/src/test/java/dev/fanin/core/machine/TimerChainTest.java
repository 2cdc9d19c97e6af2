package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the machine keeps a window to one live timer chain ({@link TimerChain}): only the write that starts a chain
 * stores it; a message of the live chain that comes before the window is due arms the next one without a write; a
 * message of any other chain arms nothing; ingest leaves a chain past its first message alone.
 */
class TimerChainTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    /** Sessions of 30 s gap; the fixture's watermark allows 5 s of out-of-orderness. */
    private final PipelineConfig sessions = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30))).build();
    private final WindowMachine machine = new WindowMachine(sessions, LEASE);
    private final WindowRef ref = new WindowRef("test-pipe", "key-1", "s-1");

    private static long watermarkAt(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    /** The session after one event arriving at {@code at} with event time {@code at}, as stored (version 1). */
    private WindowState created(WindowMachine m, Instant at) {
        WindowState open = m.open(ref, new Interval(at.toEpochMilli(), at.toEpochMilli() + 30_000), at);
        Transition t = m.ingest(open, List.of(event("e0", at.toEpochMilli())), watermarkAt(at), at);
        return stored(t, open);
    }

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private WindowState extended(WindowState s, String id, Instant at) {
        return stored(machine.ingest(s, List.of(event(id, at.toEpochMilli())), watermarkAt(at), at), s);
    }

    /** Tumbling minutes (the fixture's pipeline: an hour's lifetime, 30 s lateness). */
    private final WindowMachine tumbling = new WindowMachine(PipelineFixture.pipeline().build(), LEASE);
    /** A watermark two hours behind T0. */
    private static final long LAGGING = T0.toEpochMilli() - Duration.ofHours(2).toMillis();

    /** The minute [T0, T0+60 s) of {@code m}, not yet stored. */
    private WindowState minute(WindowMachine m) {
        return m.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
    }

    /** The minute after one event at T0 with the watermark two hours behind, as stored: timed for its hard deadline. */
    private WindowState laggingMinute() {
        WindowState open = minute(tumbling);
        return stored(tumbling.ingest(open, List.of(event("e1", T0.toEpochMilli())), LAGGING, T0), open);
    }

    private static Visitor messageOf(TimerChain chain, Instant dueAt) {
        return Visitor.timer(chain.id(), dueAt);
    }

    @Test
    void theWriteThatCreatesAWindowStartsItsChainNamedAfterTheVersionItWrites() {
        Transition t = machine.ingest(machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 30_000), T0),
                List.of(event("e0", T0.toEpochMilli())), watermarkAt(T0), T0);

        // Session end T0+30 s, watermark T0-5 s: due 35 s from now.
        assertThat(t.next().timer()).isEqualTo(new TimerChain(1, T0.plusSeconds(35)));
        assertThat(t.timerDue()).isEqualTo(T0.plusSeconds(35));
    }

    @Test
    void anEventExtendingTheSessionBeforeTheFirstMessageKeepsTheChainAndArmsNothing() {
        WindowState s = created(machine, T0);
        Transition t = machine.ingest(s, List.of(event("e1", T0.plusSeconds(20).toEpochMilli())), watermarkAt(T0.plusSeconds(20)), T0.plusSeconds(20));

        assertThat(t.next().timer()).isEqualTo(s.timer());
        assertThat(t.armsTimer()).isFalse();
    }

    @Test
    void theLiveChainsMessageComingEarlyArmsTheNextWithoutAWrite() {
        WindowState s = extended(created(machine, T0), "e1", T0.plusSeconds(20));
        Instant fired = T0.plusSeconds(35);
        Transition t = machine.tick(s, watermarkAt(fired), fired, messageOf(s.timer(), fired));

        assertThat(t.write()).isFalse();
        // Session end T0+50 s; the watermark (T0+30 s) gets there in 20 s.
        assertThat(t.timerDue()).isEqualTo(T0.plusSeconds(55));
        assertThat(t.next().timer()).isEqualTo(s.timer());
    }

    @Test
    void aMessageOfAnotherChainArmsNothing() {
        WindowState s = extended(created(machine, T0), "e1", T0.plusSeconds(20));
        Instant fired = T0.plusSeconds(35);
        Transition t = machine.tick(s, watermarkAt(fired), fired, Visitor.timer(s.timer().id() + 1, fired));

        assertThat(t.write()).isFalse();
        assertThat(t.armsTimer()).isFalse();
    }

    @Test
    void aSessionExtendedAgainAndAgainKeepsExactlyOneLiveMessageAndItsTimersNeverWrite() {
        // Events every 20 s keep extending the session; messages come when they are due, in time order.
        WindowState s = created(machine, T0);
        java.util.List<Visitor.Timer> inFlight = new java.util.ArrayList<>();
        inFlight.add(new Visitor.Timer(s.timer().id(), s.timer().armedFor()));
        int writesByTimers = 0;
        for (int i = 1; i <= 12; i++) {
            Instant at = T0.plusSeconds(20L * i);
            inFlight.sort(java.util.Comparator.comparing(Visitor.Timer::dueAt));
            while (!inFlight.isEmpty() && !inFlight.get(0).dueAt().isAfter(at)) {
                Visitor.Timer message = inFlight.remove(0);
                Transition t = machine.tick(s, watermarkAt(message.dueAt()), message.dueAt(), message);
                writesByTimers += t.write() ? 1 : 0;
                if (t.armsTimer()) {
                    inFlight.add(new Visitor.Timer(t.next().timer().id(), t.timerDue()));
                }
            }
            Transition t = machine.ingest(s, List.of(event("e" + i, at.toEpochMilli())), watermarkAt(at), at);
            s = stored(t, s);
            if (t.armsTimer()) {
                inFlight.add(new Visitor.Timer(s.timer().id(), t.timerDue()));
            }
            long live = s.timer().id();
            assertThat(inFlight.stream().filter(m -> m.chain() == live).count()).as("live messages after event %d", i).isEqualTo(1);
            assertThat(inFlight.size()).as("messages in flight after event %d", i).isLessThanOrEqualTo(2);
        }
        assertThat(writesByTimers).isZero();
    }

    @Test
    void aWriteAfterTheChainsFirstMessageRefreshesTheChainSoAWatermarkJumpIsNotMissed() {
        WindowState s = extended(created(machine, T0), "e1", T0.plusSeconds(20));
        // The first message comes at T0+35 s and arms the next for T0+55 s (the session ends at T0+50 s).
        Transition hop = machine.tick(s, watermarkAt(T0.plusSeconds(35)), T0.plusSeconds(35), messageOf(s.timer(), T0.plusSeconds(35)));
        assertThat(hop.timerDue()).isEqualTo(T0.plusSeconds(55));

        // Other keys' events push the watermark to T0+45 s; an event of this session at T0+38 s (late, still in it).
        Instant now = T0.plusSeconds(38);
        long watermark = T0.plusSeconds(45).toEpochMilli();
        Transition t = machine.ingest(s, List.of(event("e2", T0.plusSeconds(30).toEpochMilli())), watermark, now);

        // Session end T0+60 s, 15 s ahead of the watermark: due at T0+53 s, before the chain's next message.
        assertThat(t.next().timer()).isEqualTo(new TimerChain(s.version() + 1, T0.plusSeconds(53)));
        assertThat(t.timerDue()).isEqualTo(T0.plusSeconds(53));
    }

    @Test
    void aWindowDueEarlierThanItsChainsFirstMessageStartsANewChain() {
        // A tumbling minute whose watermark lags by two hours is timed for its hard deadline, an hour away ...
        WindowState s = laggingMinute();
        assertThat(s.timer()).isEqualTo(new TimerChain(1, s.hardDeadline()));

        // ... and when the watermark gets to 30 s before the window's end, a sweep starts a chain due in 30 s.
        Instant now = T0.plusSeconds(5);
        Transition t = tumbling.tick(s, T0.toEpochMilli() + 30_000, now);
        assertThat(t.write()).isTrue();
        assertThat(t.next().timer()).isEqualTo(new TimerChain(2, now.plusSeconds(30)));
        assertThat(t.timerDue()).isEqualTo(now.plusSeconds(30));
    }

    @Test
    void aMessageBeyondTheDelayLimitArrivingEarlyWithNothingChangedArmsTheSameTimeAgain() {
        // Hard deadline in an hour, watermark two hours behind: the chain's first message is armed for the deadline
        // and, with SQS's 15-minute delay limit, comes after 15 minutes.
        WindowState s = laggingMinute();
        Instant early = T0.plusSeconds(900);

        Transition t = tumbling.tick(s, LAGGING, early, messageOf(s.timer(), s.hardDeadline()));

        assertThat(t.write()).isFalse();
        assertThat(t.timerDue()).isEqualTo(s.hardDeadline());
    }

    @Test
    void aClaimEndsTheChainAndACorrectionLeftPendingStartsTheNextAfterTheCommit() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().count(2).build(), LEASE);
        WindowState open = minute(m);
        WindowState first = stored(m.ingest(open, List.of(event("e1", T0.toEpochMilli())), watermarkAt(T0), T0), open);
        TimerChain chain = first.timer();
        Instant at = T0.plusSeconds(2);
        WindowState claimed = stored(m.ingest(first, List.of(event("e2", at.toEpochMilli())), watermarkAt(at), at), first);
        assertThat(claimed.status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(claimed.timer()).isNull();
        WindowState closed = stored(m.commit(claimed, claimed.fence(), watermarkAt(at), at), claimed);
        assertThat(closed.timer()).as("nothing pending: no chain").isNull();

        // The first chain's message comes later: the window is closed and it arms nothing.
        Transition stale = m.tick(closed, watermarkAt(chain.armedFor()), chain.armedFor(), messageOf(chain, chain.armedFor()));
        assertThat(stale.armsTimer()).isFalse();

        // A late event within lateness is a correction due after the correction delay (5 s): a new chain.
        Instant late = T0.plusSeconds(70);
        Transition t = m.ingest(closed, List.of(event("e3", T0.plusSeconds(10).toEpochMilli())), T0.toEpochMilli() + 61_000, late);
        assertThat(t.next().timer()).isEqualTo(new TimerChain(closed.version() + 1, late.plusSeconds(5)));
        assertThat(t.timerDue()).isEqualTo(late.plusSeconds(5));
    }

    @Test
    void aSizeLimitContinuationThatReceivedNothingClosesWithoutAChainOrAnIndexEntry() {
        WindowMachine m = new WindowMachine(PipelineFixture.pipeline().maxEventsPerWindow(2).build(), LEASE);
        WindowState open = minute(m);
        WindowState split = stored(m.ingest(open, List.of(event("e1", T0.toEpochMilli()), event("e2", T0.toEpochMilli())),
                watermarkAt(T0), T0), open);
        assertThat(split.status()).isEqualTo(WindowStatus.CLAIMED);
        Transition commit = m.commit(split, split.fence(), watermarkAt(T0), T0);
        WindowState continuation = stored(commit, split);
        assertThat(continuation.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(continuation.timer()).as("the continuation's chain").isEqualTo(new TimerChain(split.version() + 1, commit.timerDue()));

        // Its chain's message comes once the watermark passes the window's end: nothing to emit, nothing due any more.
        Instant end = T0.plusSeconds(60);
        Transition t = m.tick(continuation, end.toEpochMilli(), end.plusSeconds(5), messageOf(continuation.timer(), commit.timerDue()));
        assertThat(t.next().status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(t.next().dueAt()).isNull();
        assertThat(t.next().timer()).isNull();
        assertThat(t.armsTimer()).isFalse();
    }

    @Test
    void aMergeStartsANewChainForTheSurvivor() {
        WindowState survivor = extended(created(machine, T0), "e1", T0.plusSeconds(20));
        WindowState other = created(machine, T0.plusSeconds(40));
        WindowState merged = SessionMerge.absorb(survivor, other);
        assertThat(merged.timer()).isNull();

        Transition t = machine.ingest(merged, List.of(event("e9", T0.plusSeconds(45).toEpochMilli())), watermarkAt(T0.plusSeconds(45)), T0.plusSeconds(45));
        assertThat(t.next().timer().id()).isEqualTo(survivor.version() + 1);
        assertThat(t.armsTimer()).isTrue();
    }

    @Test
    void aChainStoredBeforeChainsHadIdsIsReplacedAtItsOwnMessageOnly() {
        WindowState s = extended(created(machine, T0), "e1", T0.plusSeconds(20));
        Instant armedFor = s.timer().armedFor();
        WindowState.Builder b = s.toBuilder();
        b.timer = new TimerChain(0, armedFor);
        WindowState legacy = b.build();
        Instant fired = armedFor;

        Transition other = machine.tick(legacy, watermarkAt(fired), fired, Visitor.timer(0, armedFor.minusSeconds(3)));
        assertThat(other.armsTimer()).as("a legacy message for another time is stale").isFalse();

        // The stored time has milliseconds; the message's (the clock's own) had microseconds.
        Transition own = machine.tick(legacy, watermarkAt(fired), fired, Visitor.timer(0, armedFor.plusNanos(456_000)));
        assertThat(own.write()).isTrue();
        assertThat(own.next().timer()).isEqualTo(new TimerChain(legacy.version() + 1, T0.plusSeconds(55)));
    }
}
