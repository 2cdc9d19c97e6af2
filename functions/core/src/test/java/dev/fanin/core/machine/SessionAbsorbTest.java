package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ExpectedSpec;
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
 * A session absorbing another (a bridging event joined them): the survivor keeps its id and takes the other's events,
 * ids and completeness, and the earlier hard deadline, so a merge never postpones a close nor completes a window that
 * is still missing a member.
 *
 * <p>Sessions of 30 s gap whose events carry a shard number (from 0) and, some of them, the shard count.
 */
class SessionAbsorbTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final PipelineConfig shards = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30)))
            .expected(new ExpectedSpec(null, PipelineFixture.path("$.of"), PipelineFixture.path("$.shard"), 0)).build();
    private final WindowMachine machine = new WindowMachine(shards, LEASE);

    /** A stored session of one key opened at {@code openedAt} by events at event times {@code t}, {@code t+1}, ... */
    private WindowState session(Instant openedAt, long t, String... payloads) {
        WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.sessionId(t));
        WindowState open = machine.open(ref, new Interval(t, t + 30_000), openedAt);
        List<dev.fanin.core.event.Event> events = new java.util.ArrayList<>();
        for (int i = 0; i < payloads.length; i++) {
            events.add(event(ref.windowId() + "-" + i, t + i, payloads[i]));
        }
        Transition created = machine.ingest(open, events, t - 60_000, openedAt);
        assertThat(created.write()).isTrue();
        assertThat(created.next().status()).isEqualTo(WindowStatus.OPEN);
        return created.next().withVersion(1);
    }

    @Test
    void theSurvivorTakesTheAbsorbedSessionsEventsAndTheEarlierDeadline() {
        long t = T0.toEpochMilli();
        WindowState survivor = session(T0.plusSeconds(20), t, "{\"shard\":0}");
        WindowState absorbed = session(T0, t + 40_000, "{\"shard\":2,\"of\":4}", "{\"shard\":3}");

        WindowState merged = SessionMerge.absorb(survivor, absorbed);

        assertThat(merged.ref()).isEqualTo(survivor.ref());
        assertThat(merged.bounds()).isEqualTo(new Interval(t, t + 40_001 + 30_000));
        assertThat(merged.hardDeadline()).isEqualTo(absorbed.hardDeadline()).isBefore(survivor.hardDeadline());
        assertThat(merged.openedAt()).isEqualTo(T0);
        assertThat(merged.eventIds()).containsAll(survivor.eventIds()).containsAll(absorbed.eventIds()).hasSize(3);
        assertThat(merged.revisionEvents()).isEqualTo(3);
        assertThat(merged.completeness().members()).containsExactly(0, 2, 3);
        assertThat(merged.completeness().expected()).isEqualTo(4);
        assertThat(merged.absorbed()).containsExactly(absorbed.ref().windowId());
        assertThat(merged.firstEventTime()).isEqualTo(survivor.firstEventTime());
        assertThat(merged.lastEventTime()).isEqualTo(absorbed.lastEventTime());
        assertThat(merged.timer()).as("the merged session starts a new chain at its next write").isNull();

        WindowState gone = LegacyMerged.of(absorbed);
        assertThat(gone.status()).isEqualTo(WindowStatus.MERGED);
        assertThat(gone.dueAt()).isNull();
        assertThat(machine.tick(gone, t + 3_600_000, T0.plusSeconds(7_200)).action()).isEqualTo(Transition.Action.NONE);
    }

    /** Late events a HELD session accepted stay counted in the session that absorbs it. */
    @Test
    void theSurvivorKeepsCountingTheAbsorbedSessionsLateEvents() {
        PipelineConfig holding = PipelineFixture.pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30)))
                .expected(new ExpectedSpec(3, null, null, 0))
                .incomplete(dev.fanin.core.config.IncompletePolicy.Mode.HOLD, dev.fanin.core.config.IncompletePolicy.AtDeadline.FIRE_FLAGGED)
                .build();
        WindowMachine m = new WindowMachine(holding, LEASE);
        long t = T0.toEpochMilli();
        WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.sessionId(t + 40_000));
        WindowState fresh = m.open(ref, new Interval(t + 40_000, t + 70_000), T0);
        WindowState open = m.ingest(fresh, List.of(event("a", t + 40_000)), t, T0).next().withVersion(1);
        WindowState held = m.tick(open, t + 70_000, T0.plusSeconds(75)).next().withVersion(2);
        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        WindowState late = m.ingest(held, List.of(event("b", t + 40_001)), t + 71_000, T0.plusSeconds(76)).next().withVersion(3);
        assertThat(late.lateEvents()).isEqualTo(1);
        WindowRef survivorRef = new WindowRef("test-pipe", "key-1", WindowRef.sessionId(t));
        WindowState survivorFresh = m.open(survivorRef, new Interval(t, t + 30_000), T0);
        WindowState survivor = m.ingest(survivorFresh, List.of(event("c", t)), t - 60_000, T0).next().withVersion(1);

        assertThat(SessionMerge.absorb(survivor, late).lateEvents()).isEqualTo(1);
        assertThat(SessionMerge.absorb(survivor, late).revisionEvents()).isEqualTo(3);
    }

    /** The survivor had not learned the count and kept shard 7; the absorbed session knows there are 3 shards. */
    @Test
    void aMergeDoesNotCompleteASessionStillMissingAMember() {
        long t = T0.toEpochMilli();
        WindowState survivor = session(T0, t, "{\"shard\":0}", "{\"shard\":7}");
        WindowState absorbed = session(T0, t + 40_000, "{\"shard\":1,\"of\":3}");
        WindowState merged = SessionMerge.absorb(survivor, absorbed);

        // The bridging event is a repeat of shard 1 (another event id): shard 2 is still missing.
        Transition bridge = machine.ingest(merged, List.of(event("bridge", t + 20_000, "{\"shard\":1}")), t - 60_000, T0.plusSeconds(25));

        assertThat(bridge.action()).isEqualTo(Transition.Action.NONE);
        assertThat(bridge.next().status()).isEqualTo(WindowStatus.OPEN);
        assertThat(bridge.next().completeness().missingMembers().orElseThrow().members()).containsExactly(2);

        Transition last = machine.ingest(bridge.next().withVersion(2), List.of(event("s2", t + 21_000, "{\"shard\":2}")),
                t - 60_000, T0.plusSeconds(26));
        assertThat(last.next().claim().reason()).isEqualTo(CloseReason.EXPECTED_COMPLETE);
        assertThat(last.next().claim().complete()).isTrue();
    }

    /** A merge is a transition: the bridging event counted, the absorbed ids named for the write that removes them. */
    @Test
    void aMergeIsOneTransitionNamingWhatItAbsorbs() {
        long t = T0.toEpochMilli();
        WindowState survivor = session(T0, t, "{\"shard\":0}");
        WindowState absorbed = session(T0, t + 40_000, "{\"shard\":2,\"of\":4}");
        Interval bounds = survivor.bounds().span(absorbed.bounds());

        Transition merged = machine.merge(new WindowMachine.Merge(survivor, List.of(absorbed), bounds),
                List.of(event("bridge", t + 20_000, "{\"shard\":1}")), t - 60_000, T0.plusSeconds(25));

        assertThat(merged.write()).isTrue();
        assertThat(merged.absorbed()).containsExactly(absorbed.ref().windowId());
        assertThat(merged.next().ref()).isEqualTo(survivor.ref());
        assertThat(merged.next().revisionEvents()).isEqualTo(3);
        assertThat(merged.next().absorbed()).containsExactly(absorbed.ref().windowId());
    }

    /** An event not counted (a duplicate of one the survivor holds) bridges nothing: no merge, nothing written. */
    @Test
    void anEventNotCountedMergesNothing() {
        long t = T0.toEpochMilli();
        WindowState survivor = session(T0, t, "{\"shard\":0}");
        WindowState absorbed = session(T0, t + 40_000, "{\"shard\":2}");
        Interval bounds = survivor.bounds().span(absorbed.bounds());
        String heldId = survivor.ref().windowId() + "-0";

        Transition none = machine.merge(new WindowMachine.Merge(survivor, List.of(absorbed), bounds),
                List.of(event(heldId, t, "{\"shard\":0}")), t - 60_000, T0.plusSeconds(25));

        assertThat(none.write()).isFalse();
        assertThat(none.absorbed()).isEmpty();
        assertThat(none.next()).isEqualTo(survivor);
        assertThat(none.counted()).isFalse();
    }
}
