package dev.fanin.core.service;

import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.Visitor;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.SessionPlan;
import dev.fanin.core.window.SessionPlanner;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest of one session key. Sessions merge and clip each other, so they are planned together against one
 * consistent view: the key's live sessions (one item, one version) and the committed sessions the events fall near
 * ({@link KeySessions}). Every change to the live sessions (created, extended, merged, claimed, cut short) is one
 * conditional write of that item, so two invocations on one key never both create or extend a session from the same
 * view: the loser re-reads and re-plans, and the events the winner counted are then duplicates. Events late for a
 * committed session are written to that session's own item, under its own version.
 *
 * <p>An event is a duplicate when the session its time lies in already counts it: the session that counted an event
 * always contains its time (an accepting session only grows, a merge spans what it absorbs, a closed one is frozen).
 */
final class SessionIngest {

    private static final Logger LOG = LoggerFactory.getLogger(SessionIngest.class);


    private final FaninEngine engine;
    private final WindowWrites writes;

    SessionIngest(FaninEngine engine, WindowWrites writes) {
        this.engine = engine;
        this.writes = writes;
    }

    /**
     * @param settleClaims emits and commits the claims written so far (a session cut at the size bound leaves the live
     *                     item with its commit), before a round that continues it
     */
    void ingest(PipelineBatch share, String key, List<Event> events, Runnable settleClaims) {
        IngestBatch batch = share.batch();
        Round[] last = {new Round(List.copyOf(events), false, false)};
        try {
            // A round whose write cut a session at the size bound hands the rest on to the next round, which continues
            // it: that is progress, not a conflict, so each such round has its own conflict retries. Each one cuts a
            // session or counts an event, so there are at most two rounds an event. The cut session is committed
            // first, so the live item holds one cut session's frozen aggregate at a time, whatever the burst.
            for (int round = 0; round <= 2 * events.size(); round++) {
                Optional<Boolean> done = Conflicts.retry(engine.settings().conflictRetries(), batch::startStep, () -> {
                    last[0] = attempt(share, key, last[0].left());
                    return last[0].left().isEmpty() || last[0].handedOn() ? Optional.of(true) : Optional.empty();
                });
                List<Event> left = last[0].left();
                if (done.isEmpty()) {
                    batch.fail(left, last[0].tooLarge() ? liveItemFull(share.pipeline(), key) : "sessions of key kept conflicting");
                    return;
                }
                if (left.isEmpty()) {
                    return;
                }
                settleClaims.run();
                batch.startStep();
                if (batch.outOfTime(left)) {
                    return;
                }
            }
            batch.fail(last[0].left(), "sessions of key kept being cut at the size bound");
        } catch (StoreUnavailableException e) {
            engine.ports().metrics().count(MetricNames.STORE_UNAVAILABLE, share.pipeline());
            batch.fail(last[0].left(), "store unavailable: " + e.getMessage());
        }
    }

    /**
     * What a round left to plan again: the events whose write lost to another writer, or, when {@code handedOn}, only
     * those its applied write handed on (a bridge or the rest of a batch past a session it cut at the size bound).
     *
     * @param tooLarge the write was refused because the live item would pass what one item holds
     */
    private record Round(List<Event> left, boolean handedOn, boolean tooLarge) {
    }

    /** One read, plan and write of the key. */
    private Round attempt(PipelineBatch share, String key, List<Event> events) {
        IngestBatch batch = share.batch();
        WindowMachine machine = share.machine();
        long watermark = share.watermark();
        Duration gap = ((WindowSpec.Session) machine.config().window()).gap();
        KeySessions view = KeySessions.load(engine, share.reads(), machine.config().name(), key,
                events.stream().map(e -> e.eventTime().toEpochMilli()).toList(), gap);
        events = KeyVerdicts.withoutCopies(events, view.live(), batch, watermark);
        List<Long> times = events.stream().map(e -> e.eventTime().toEpochMilli()).toList();
        List<SessionView> views = view.views(gap, batch.now);
        SessionPlan plan = SessionPlanner.plan(gap, views, times);
        Planned planned = new Planned(batch, machine, view, watermark, gap, views);
        for (SessionPlan.Target target : plan.sessions()) {
            accepting(target, pick(events, target.eventIndexes()), planned);
        }
        List<Event> conflicted = new ArrayList<>();
        for (SessionPlan.FlushedTarget target : plan.flushed()) {
            List<Event> evs = pick(events, target.eventIndexes());
            if (view.isLive(target.windowId())) {
                WindowState live = view.state(target.windowId());
                applyLive(live, machine.ingest(live, evs, watermark, batch.now), evs, planned);
            } else if (!committed(target.windowId(), evs, planned)) {
                conflicted.addAll(evs);
            }
        }
        claimThosePastTheirDeadline(planned);
        cutOldestBeyondTheLimit(machine, planned.change, watermark, batch);
        conflicted.addAll(writeLive(batch, planned));
        boolean handedOn = conflicted.isEmpty() && !planned.replan.isEmpty();
        conflicted.addAll(planned.replan);
        return new Round(conflicted, handedOn, planned.tooLarge);
    }

    /**
     * Reports {@code outcomes} of a session whose write, if any, is in ({@code written}); the too-late verdicts no
     * session keeps go to the key's live item ({@link KeyVerdicts#keep}) and are reported once that is written.
     */
    private static void reportOrKeep(List<EventOutcome> outcomes, WindowRef ref, boolean written, Planned planned) {
        List<EventOutcome> kept = KeyVerdicts.keep(outcomes, written, planned.change, planned.machine, planned.batch);
        Set<Event> later = identitySet();
        kept.forEach(o -> later.add(o.event()));
        planned.batch.record(without(outcomes, later), ref, planned.watermark);
        if (!kept.isEmpty()) {
            planned.outcomes.add(Map.entry(ref, kept));
            planned.events.addAll(later);
        }
    }

    /** An accepting session of the plan: created, extended, or absorbing its neighbours. */
    private void accepting(SessionPlan.Target target, List<Event> evs, Planned planned) {
        WindowMachine machine = planned.machine;
        IngestBatch batch = planned.batch;
        WindowRef ref = new WindowRef(machine.config().name(), planned.view.live().key(), target.windowId());
        String continues = target.continues() == null ? null : ref.withWindowId(target.continues()).aggregateId(0);
        WindowState state = target.created() ? machine.open(ref, target.bounds(), batch.now, continues) : planned.view.state(target.windowId());
        List<WindowState> absorbed = target.absorbed().stream().map(planned.view::state).toList();
        Transition t = machine.merge(new WindowMachine.Merge(state, absorbed, target.bounds()), evs, planned.watermark, batch.now);
        if (!t.counted() && !absorbed.isEmpty() && refused(t, EventOutcome.Disposition.RETRY)) {
            // The merge would pass the size bound (nothing else refuses for now; a created target absorbs nothing).
            cutTheEarliest(state, absorbed, evs, planned);
            return;
        }
        if (!t.counted() && !absorbed.isEmpty() && refused(t, EventOutcome.Disposition.WINDOW_FULL)) {
            sideOutputTheBridges(t, planned);
            return;
        }
        if (!t.counted() && (target.created() || !absorbed.isEmpty())) {
            // Nothing counted: a session is never created empty, and an event not counted bridges nothing.
            reportOrKeep(t.outcomes(), ref, false, planned);
            return;
        }
        if (target.created() && !writes.takeSlot(t.next(), batch.followups)) {
            batch.refuse(ref, evs);
            return;
        }
        t.absorbed().forEach(planned.change::absorb);
        applyLive(target.created() ? null : state, t, evs, planned);
    }

    /**
     * The sessions a bridge would merge hold more than the size bound: the earliest of them is cut at it, written with
     * the key's other changes, and the bridging events are planned again after that write, when they continue it.
     */
    private void cutTheEarliest(WindowState survivor, List<WindowState> absorbed, List<Event> evs, Planned planned) {
        WindowState earliest = Stream.concat(Stream.of(survivor), absorbed.stream())
                .min(Comparator.comparingLong((WindowState s) -> s.bounds().startMillis())).orElseThrow();
        planned.change.put(planned.machine.cutAtTheSizeBound(earliest, planned.watermark, planned.batch.now), false);
        planned.replan.addAll(evs);
        WindowLog.info(LOG, earliest.ref(), "session cut at the size bound: a bridge would merge more events than it may hold",
                Map.of("maxEventsPerWindow", planned.machine.config().bounds().maxEventsPerWindow()));
    }

    /**
     * Under {@code onOverflow: side-output}, the sessions a bridge would merge hold more than the size bound: the events
     * that bridge sessions on their own go to the side output (WINDOW_FULL), and the others are planned again, into
     * their own sessions, so whether an event that fits its session counts does not depend on how SQS batched it with
     * a bridge. When none bridges alone (a chain of them does), they all go, as the merge they make would not fit.
     */
    private void sideOutputTheBridges(Transition t, Planned planned) {
        Set<Event> alone = identitySet();
        long full = 0;
        for (EventOutcome o : t.outcomes()) {
            if (o.disposition() == EventOutcome.Disposition.WINDOW_FULL) {
                full++;
                boolean bridges = SessionPlanner.plan(planned.gap, planned.views, List.of(o.event().eventTime().toEpochMilli()))
                        .sessions().stream().anyMatch(s -> !s.absorbed().isEmpty());
                if (!bridges) {
                    alone.add(o.event());
                }
            }
        }
        if (alone.size() == full) {
            alone.clear();
        }
        planned.replan.addAll(alone);
        reportOrKeep(without(t.outcomes(), alone), t.next().ref(), false, planned);
    }

    /**
     * Whether the transition refused events with {@code disposition}: RETRY (for now: only the split size bound does)
     * or WINDOW_FULL, not as duplicates or too late.
     */
    private static boolean refused(Transition t, EventOutcome.Disposition disposition) {
        return t.outcomes().stream().anyMatch(o -> o.disposition() == disposition);
    }

    /** A set of events by identity: the very events a plan picked, whatever their ids. */
    private static Set<Event> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    private static List<EventOutcome> without(List<EventOutcome> outcomes, Set<Event> events) {
        return outcomes.stream().filter(o -> !events.contains(o.event())).toList();
    }

    /**
     * A transition of a live session, written with the key's other changes; recorded once that write is applied. The
     * events it could not count because it cut the session at the size bound are planned again after that write, when
     * they continue it (rule 7: a stream cut short loses no on-time event), instead of waiting in SQS for a redelivery
     * each bound's worth.
     */
    private void applyLive(WindowState before, Transition t, List<Event> evs, Planned planned) {
        if (!t.write()) {
            reportOrKeep(t.outcomes(), t.next().ref(), false, planned);
            if (before != null) {
                planned.batch.rearmAfterRedelivery(planned.machine, before, evs, planned.watermark);
            }
            return;
        }
        planned.change.put(t, before == null);
        boolean cutNow = t.next().isClaimed() && t.next().claim().reason() == CloseReason.SIZE_LIMIT
                && (before == null || !before.isClaimed());
        Set<Event> handedOn = identitySet();
        if (cutNow) {
            t.outcomes().stream().filter(o -> o.disposition() == EventOutcome.Disposition.RETRY).forEach(o -> handedOn.add(o.event()));
        }
        planned.replan.addAll(handedOn);
        evs.stream().filter(e -> !handedOn.contains(e)).forEach(planned.events::add);
        List<EventOutcome> outcomes = without(t.outcomes(), handedOn);
        KeyVerdicts.keep(outcomes, true, planned.change, planned.machine, planned.batch);
        planned.outcomes.add(Map.entry(t.next().ref(), outcomes));
    }

    /**
     * Events late for a committed session, written to its own item.
     *
     * @return false when that write lost to another writer
     */
    private boolean committed(String windowId, List<Event> evs, Planned planned) {
        IngestBatch batch = planned.batch;
        WindowState state = planned.view.state(windowId);
        Transition t = planned.machine.ingest(state, evs, planned.watermark, batch.now);
        if (!t.write()) {
            reportOrKeep(t.outcomes(), state.ref(), false, planned);
            batch.rearmAfterRedelivery(planned.machine, state, evs, planned.watermark);
            return true;
        }
        WriteOutcome outcome = writes.write(planned.view.closedStored(windowId), t, batch.followups);
        if (outcome.applied()) {
            reportOrKeep(t.outcomes(), state.ref(), true, planned);
        }
        return outcome.applied();
    }

    /**
     * Claims, in the write the key gets anyway, each live session this plan saw as cut at its hard deadline
     * ({@link KeySessions}) and left as it was: the plan may have opened the session that continues it inside its gap,
     * and a worker whose clock is a little behind, still before the deadline, would otherwise claim it by its gap,
     * whole, overlapping that continuation (an event in both then counted by both). The claim freezes it where the plan
     * cut it, and is emitted after the write as any claim the ingest makes.
     */
    private static void claimThosePastTheirDeadline(Planned planned) {
        if (!planned.change.changed()) {
            return;
        }
        for (WindowState s : List.copyOf(planned.change.states())) {
            if (!planned.change.changes(s.ref().windowId()) && KeySessions.pastItsDeadline(s, planned.batch.now)) {
                Transition t = planned.machine.tick(s, planned.watermark, planned.batch.now, Visitor.WRITER);
                if (t.write()) {
                    planned.change.put(t, false);
                }
            }
        }
    }

    /**
     * Keeps a key's accepting sessions within {@link LiveSessions#MAX_ACCEPTING} and
     * {@link LiveSessions#MAX_LIVE_STATE_BYTES} of state: past either, the accepting sessions that start earliest are
     * cut short (SESSION_LIMIT, flagged incomplete), so every window still closes and nothing is lost; they leave the
     * item when their commit is written, in this invocation's flush.
     */
    private void cutOldestBeyondTheLimit(WindowMachine machine, LiveChange change, long watermark, IngestBatch batch) {
        List<WindowState> accepting = change.states().stream()
                .filter(s -> s.status() == WindowStatus.OPEN || s.status() == WindowStatus.HELD)
                .sorted(Comparator.comparingLong((WindowState s) -> s.bounds().startMillis()))
                .toList();
        int count = accepting.size();
        long bytes = accepting.stream().mapToLong(s -> change.stateBytes(s.ref().windowId())).sum();
        for (WindowState oldest : accepting) {
            if (count <= LiveSessions.MAX_ACCEPTING && bytes <= LiveSessions.MAX_LIVE_STATE_BYTES) {
                return;
            }
            count--;
            bytes -= change.stateBytes(oldest.ref().windowId());
            change.put(machine.cutShort(oldest, watermark, batch.now), change.isCreated(oldest.ref().windowId()));
            engine.ports().metrics().count(MetricNames.SESSIONS_CUT_SHORT, machine.config().name());
            WindowLog.warn(LOG, oldest.ref(), "session cut short: its key's live sessions would pass what one item may hold",
                    Map.of("accepting", accepting.size(), "maxSessions", LiveSessions.MAX_ACCEPTING, "stateBytes", bytes,
                            "maxStateBytes", LiveSessions.MAX_LIVE_STATE_BYTES));
        }
    }

    /**
     * Writes the key's live change; on a lost write, the events it carried are re-planned and the slots taken for the
     * sessions it would have created are returned.
     */
    private List<Event> writeLive(IngestBatch batch, Planned planned) {
        if (!planned.change.changed()) {
            return List.of();
        }
        WriteOutcome outcome = writes.writeLive(planned.change, batch.followups);
        if (!outcome.applied()) {
            if (outcome.reason() == WriteOutcome.Rejection.TOO_LARGE) {
                planned.tooLarge = true;
                return handBackTheLaterHalf(batch, planned);
            }
            return planned.events;
        }
        planned.outcomes.forEach(o -> batch.record(o.getValue(), o.getKey(), planned.watermark));
        return List.of();
    }

    /**
     * The key's live item would pass what one item holds with the events this write carried (several sessions cut in
     * one batch each keep a frozen aggregate until their commit, after the batch): the later half by event time goes
     * back to the input, to come again once those commits have left the item, and the earlier half is planned again.
     * A single event that does not fit goes back too. Nothing is written, so nothing else of the plan stands.
     *
     * @return the events to plan again
     */
    private List<Event> handBackTheLaterHalf(IngestBatch batch, Planned planned) {
        List<Event> carried = new ArrayList<>(planned.events);
        carried.sort(Comparator.comparing(Event::eventTime).thenComparing(Event::eventId));
        int keep = carried.size() / 2;
        List<Event> back = carried.subList(keep, carried.size());
        WindowRef key = WindowRef.wholeKey(planned.machine.config().name(), planned.view.live().key());
        WindowLog.warn(LOG, key, "live sessions would pass what one item holds: events handed back for redelivery",
                Map.of("handedBack", back.size(), "kept", keep));
        batch.fail(List.copyOf(back), liveItemFull(key.pipeline(), key.key()));
        return List.copyOf(carried.subList(0, keep));
    }

    private static String liveItemFull(String pipeline, String key) {
        return "LIVE_ITEM_FULL: the live sessions of key " + key + " of pipeline " + pipeline
                + " would pass what one DynamoDB item holds with this event; it is retried once the sessions cut meanwhile have committed";
    }

    private static List<Event> pick(List<Event> events, List<Integer> indexes) {
        return indexes.stream().map(events::get).toList();
    }

    /**
     * One attempt at a key: the batch, the pipeline's machine, the key as read and the watermark it decides at, and the
     * live change it builds, with the transitions whose outcomes wait for its write.
     */
    private static final class Planned {
        final IngestBatch batch;
        final WindowMachine machine;
        final KeySessions view;
        final long watermark;
        final LiveChange change;
        /** By session, the outcomes its transition recorded once the write is in. */
        final List<Map.Entry<WindowRef, List<EventOutcome>>> outcomes = new ArrayList<>();
        final List<Event> events = new ArrayList<>();
        /** Events to plan again once this attempt's write is in (they bridge sessions cut by it). */
        final List<Event> replan = new ArrayList<>();
        /** The session gap, and the key's sessions as the plan saw them. */
        final Duration gap;
        final List<SessionView> views;
        /** Whether the write was refused because the live item would pass what one item holds. */
        boolean tooLarge;

        Planned(IngestBatch batch, WindowMachine machine, KeySessions view, long watermark, Duration gap, List<SessionView> views) {
            this.batch = batch;
            this.machine = machine;
            this.view = view;
            this.watermark = watermark;
            this.gap = gap;
            this.views = views;
            this.change = new LiveChange(view.live(), view.liveStates(), batch.now);
        }
    }
}
