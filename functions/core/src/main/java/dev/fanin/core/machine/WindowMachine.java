package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.Retirement;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.trigger.Triggers;
import dev.fanin.core.trigger.WindowFacts;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.EventTimeMath;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The window state machine of one pipeline. Pure: every method takes the state as read, the watermark and the
 * processing time, and returns a {@link Transition} value that the caller writes under the store's version condition
 * and then executes. Nothing here reads a clock or does I/O.
 *
 * <p>Life cycle (see docs/SEMANTICS.md, "Window life cycle"):
 * <ul>
 *   <li>OPEN/HELD windows accept events; when a trigger holds, the revision is <em>claimed</em>: its aggregate is
 *   frozen into the state, a new fence is taken and a lease set, in the same conditional write.</li>
 *   <li>The claimer emits the frozen aggregate and then <em>commits</em> (conditional on its fence). A claim whose
 *   lease ends is <em>taken over</em> (new fence, same frozen aggregate, so the same aggregate id).</li>
 *   <li>Events arriving after a claim are corrections: they are folded into the cumulative aggregates and, after the
 *   correction delay, claimed as the next revision with {@code corrects} = the previous aggregate id.</li>
 *   <li>The hard deadline (creation + maxLifetime, processing time) bounds everything: an OPEN or HELD window is
 *   claimed by then whatever the watermark does, so every window closes.</li>
 * </ul>
 */
public final class WindowMachine {

    /** The most absorbed session ids a merged session keeps in its state ({@code SizeBudget} counts them). */
    public static final int MAX_ABSORBED_LISTED = 100;

    /** The default granularity of stored due times (and of the due buckets that list them). */
    public static final Duration DEFAULT_DUE_GRANULARITY = Duration.ofSeconds(10);

    private final PipelineConfig config;
    private final Duration lease;
    private final long dueGranularityMillis;
    private final EventAdmission admission;
    private final Claims claims;
    private final DueSchedule due;

    /**
     * @param config the pipeline
     * @param lease  how long a claimer has to emit and commit before another may take over; longer than the
     *               emitter's worst-case call time
     */
    public WindowMachine(PipelineConfig config, Duration lease) {
        this(config, lease, DEFAULT_DUE_GRANULARITY);
    }

    /**
     * @param dueGranularity due times are rounded UP to a multiple of this, so that a window whose next check moves with
     *                       every event (a session) needs a new due-bucket listing at most once per granularity step
     *                       instead of at every write; timers keep the exact time, so only the sweeper-alone close
     *                       latency grows, by at most this much
     */
    public WindowMachine(PipelineConfig config, Duration lease, Duration dueGranularity) {
        this(config, lease, Math.max(1, dueGranularity.toMillis()), null);
    }

    private WindowMachine(PipelineConfig config, Duration lease, long dueGranularityMillis, Retirement retired) {
        this.config = Objects.requireNonNull(config, "config");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.dueGranularityMillis = dueGranularityMillis;
        this.admission = new EventAdmission(config);
        this.claims = new Claims(config, lease, retired);
        this.due = new DueSchedule(dueGranularityMillis);
    }

    /**
     * This machine for a pipeline no longer configured: it decides as before, and every aggregate it claims carries
     * {@code retired}, frozen with the claim (a revision claimed before the change is re-emitted without it).
     */
    public WindowMachine retired(Retirement retirement) {
        return new WindowMachine(config, lease, dueGranularityMillis, Objects.requireNonNull(retirement, "retirement"));
    }

    public PipelineConfig config() {
        return config;
    }

    /** A new, empty window created at processing time {@code now}; not yet stored (version 0). */
    public WindowState open(WindowRef ref, Interval bounds, Instant now) {
        return open(ref, bounds, now, null);
    }

    /**
     * A new session that continues the session {@code continues} (its aggregate id), cut short before its gap ended; or
     * a new window like {@link #open(WindowRef, Interval, Instant)} when {@code continues} is null.
     */
    public WindowState open(WindowRef ref, Interval bounds, Instant now, String continues) {
        Instant hardDeadline = now.plus(config.triggers().maxLifetime());
        return new WindowState(ref, WindowKind.of(config.window()), Lifecycle.NEW, Schedule.opened(now, hardDeadline, expiryOfWindowOpenedAt(now)),
                Contents.empty(bounds, Aggregates.empty(config.aggregations()), Completeness.initial(config)), EventTimes.NONE,
                Lineage.of(continues), null);
    }

    /**
     * When the store may delete a window opened at {@code now}: past its hard deadline, allowed lateness, correction
     * delay, one lease and the retention. No window opened at or before {@code now} expires later (a merge only moves
     * the hard deadline earlier).
     */
    public Instant expiryOfWindowOpenedAt(Instant now) {
        return now.plus(config.triggers().maxLifetime()).plus(config.allowedLateness()).plus(config.late().correctionDelay())
                .plus(lease).plus(config.effectiveRetention());
    }

    /**
     * Offers events (all assigned to this window) to it.
     *
     * @param state         the window as read (or {@link #open})
     * @param events        events for this window, in any order
     * @param watermark     the pipeline's watermark (event time, epoch ms)
     * @param now           processing time
     */
    public Transition ingest(WindowState state, List<Event> events, long watermark, Instant now) {
        return ingest(state, events, watermark, now, unclippedBounds(state, events));
    }

    /**
     * A session that accepts events, spanning every event's {@code [t, t + gap)} as well (what the planner gives when no
     * closed session is near); any other window as it is (a flushed session's bounds are frozen).
     */
    private Interval unclippedBounds(WindowState state, List<Event> events) {
        boolean accepting = state.status() == WindowStatus.OPEN || state.status() == WindowStatus.HELD;
        if (!(config.window() instanceof WindowSpec.Session session) || !accepting) {
            return state.bounds();
        }
        Interval bounds = state.bounds();
        for (Event e : events) {
            long t = e.eventTime().toEpochMilli();
            bounds = bounds.span(new Interval(t, EventTimeMath.plus(t, session.gap().toMillis())));
        }
        return bounds;
    }

    /**
     * Offers events to a session whose bounds after this batch are {@code bounds} (the planner's target, covering every
     * event offered; equal to the stored bounds for a flushed session, whose bounds are frozen). Every event is judged
     * against that end, so the outcome does not depend on the order of the batch; the session takes those bounds once
     * an event is counted.
     */
    public Transition ingest(WindowState state, List<Event> events, long watermark, Instant now, Interval bounds) {
        Stimulus stimulus = overflows(state, events) ? Stimulus.SIZE_LIMIT_SPLIT : Stimulus.EVENTS;
        TransitionTable.require(state, stimulus);
        return TransitionTable.checked(state.status(), stimulus, offer(state, events, watermark, now, bounds));
    }

    /** Whether the events offered are more than the revision has room for, and the pipeline splits a full one. */
    private boolean overflows(WindowState state, List<Event> events) {
        return config.bounds().onOverflow() == Bounds.Overflow.SPLIT
                && state.revisionEvents() + events.size() > config.bounds().maxEventsPerWindow();
    }

    /** What a visit at {@code now} is: a takeover when it finds a claim whose lease has ended. */
    static Stimulus visitOf(WindowState state, Instant now) {
        return state.isClaimed() && !now.isBefore(state.leaseUntil()) ? Stimulus.TAKEOVER : Stimulus.VISIT;
    }

    private Transition offer(WindowState state, List<Event> events, long watermark, Instant now, Interval bounds) {
        WindowState.Builder s = state.toBuilder();
        List<Event> ordered = new ArrayList<>(events);
        ordered.sort(Comparator.comparing(Event::eventTime).thenComparing(Event::eventId));
        List<EventOutcome> outcomes = new ArrayList<>();
        boolean changed = false;
        boolean split = false;
        for (Event event : ordered) {
            EventOutcome outcome = admission.offer(s, event, watermark, now, bounds);
            if (outcome.disposition() == EventOutcome.Disposition.RETRY && !split && splitsNow(s, watermark, now)) {
                // The revision is full: cut it here and count the rest of the batch in the next one.
                split = claims.close(s, CloseReason.SIZE_LIMIT, EnumSet.of(CloseReason.SIZE_LIMIT), now) == Transition.Action.EMIT;
                outcome = admission.offer(s, event, watermark, now, bounds);
            }
            outcomes.add(outcome);
            changed |= outcome.disposition().counted() || split;
        }
        // Report in the order offered, so callers can pair outcomes with their messages.
        List<EventOutcome> inOfferOrder = new ArrayList<>();
        for (Event e : events) {
            for (int i = 0; i < outcomes.size(); i++) {
                if (outcomes.get(i).event() == e) {
                    inOfferOrder.add(outcomes.remove(i));
                    break;
                }
            }
        }
        if (state.version() == 0 && !changed) {
            // Nothing counted (all too late or refused): a window is never created empty.
            return new Transition(state, false, inOfferOrder, Transition.Action.NONE, null, state.dueAt());
        }
        Transition t = decide(s, state, changed, inOfferOrder, watermark, now, Visitor.WRITER);
        return split ? new Transition(t.next(), true, inOfferOrder, Transition.Action.EMIT, t.timerDue(), t.listingDue()) : t;
    }

    /**
     * Whether a time window that refused an event for its size bound splits now: it accepts events, splits at the
     * bound ({@code onOverflow: split}), and no trigger that precedes SIZE_LIMIT holds (that one closes it instead,
     * in the decision after the batch).
     */
    private boolean splitsNow(WindowState.Builder s, long watermark, Instant now) {
        boolean accepting = s.status == WindowStatus.OPEN || s.status == WindowStatus.HELD;
        return accepting && !s.kind.isSession() && config.bounds().onOverflow() == Bounds.Overflow.SPLIT
                && Triggers.winner(Triggers.holding(config, facts(s), watermark, now)).orElse(null) == CloseReason.SIZE_LIMIT;
    }

    /**
     * A sweep visit: closes the window if a time trigger holds, takes over an expired claim, claims a due correction,
     * or refreshes the due time.
     */
    public Transition tick(WindowState state, long watermark, Instant now) {
        return tick(state, watermark, now, Visitor.SWEEP);
    }

    /** As {@link #tick(WindowState, long, Instant)}, by the given visitor (see {@link Visitor}). */
    public Transition tick(WindowState state, long watermark, Instant now, Visitor visitor) {
        return TransitionTable.checked(state.status(), visitOf(state, now), decide(state.toBuilder(), state, false, List.of(), watermark, now, visitor));
    }

    /**
     * Who steps a window. Only a write that happens anyway replaces a stored due time already past; only a message of the
     * window's live timer chain continues the chain (see {@link TimerChain}).
     */
    public sealed interface Visitor {

        /** The sweeper, which found the window in a due bucket. */
        Visitor SWEEP = Untimed.SWEEP;
        /** Ingest and commits. */
        Visitor WRITER = Untimed.WRITER;

        /** A timer message of the chain {@code chain}, armed for {@code dueAt}. */
        static Visitor timer(long chain, Instant dueAt) {
            return new Timer(chain, dueAt);
        }

        /** The visitors that are not timer messages. */
        enum Untimed implements Visitor { SWEEP, WRITER }

        /** A timer message: the chain it belongs to and the due time it was armed for. */
        record Timer(long chain, Instant dueAt) implements Visitor {
            public Timer {
                Objects.requireNonNull(dueAt, "dueAt");
            }

            /**
             * Whether this message belongs to {@code live}, the window's chain. A message without an id (chain 0, armed
             * before chains had ids) belongs to it if it was armed for the time stored, to the millisecond the store
             * keeps.
             */
            boolean continues(TimerChain live) {
                return live != null && live.id() == chain && (chain != 0 || dueAt.toEpochMilli() == live.armedFor().toEpochMilli());
            }
        }
    }

    private Transition decide(WindowState.Builder s, WindowState before, boolean changed, List<EventOutcome> outcomes,
                              long watermark, Instant now, Visitor visitor) {
        Transition.Action action = Transition.Action.NONE;
        switch (s.status) {
            case OPEN, HELD -> {
                WindowFacts facts = facts(s);
                EnumSet<CloseReason> holding = Triggers.holding(config, facts, watermark, now);
                Optional<CloseReason> winner = Triggers.winner(holding);
                if (winner.isPresent()) {
                    WindowStatus was = s.status;
                    action = claims.close(s, winner.get(), holding, now);
                    // A HELD window that is still to be held changes nothing: a visit then writes nothing.
                    changed |= action != Transition.Action.NONE || s.status != was;
                }
                if (s.status == WindowStatus.OPEN) {
                    s.dueAt = Triggers.nextCheck(config, facts(s), watermark, now);
                } else if (s.status == WindowStatus.HELD) {
                    s.dueAt = s.hardDeadline;
                }
            }
            case CLAIMED -> {
                if (!now.isBefore(s.leaseUntil)) {
                    // The claimer did not commit in time: take over with a new fence; the frozen emission is unchanged.
                    s.fence++;
                    s.leaseUntil = now.plus(lease);
                    action = Transition.Action.EMIT;
                    changed = true;
                }
                s.dueAt = s.leaseUntil;
            }
            case CLOSED -> {
                if (s.pendingSince != null) {
                    Instant correctionDue = s.pendingSince.plus(config.late().correctionDelay());
                    if (!now.isBefore(correctionDue)) {
                        claims.claim(s, new Claims.Close(CloseReason.LATE_CORRECTION,
                                s.completeness.completeOnClose(CloseReason.LATE_CORRECTION), false, null), now);
                        action = Transition.Action.EMIT;
                        changed = true;
                        s.dueAt = s.leaseUntil;
                    } else {
                        s.dueAt = correctionDue;
                    }
                } else {
                    s.dueAt = null;
                }
            }
            case MERGED -> s.dueAt = null;
            default -> throw new IllegalStateException("unknown status " + s.status);
        }
        DueSchedule.Listed listed = due.schedule(s, before, visitor == Visitor.WRITER && changed, visitor, now);
        changed |= !Objects.equals(s.dueAt, before.dueAt()) || !Objects.equals(s.timer, before.timer());
        return new Transition(changed ? s.build() : before, changed, outcomes, action, listed.timerDue(), listed.listingDue());
    }

    /**
     * An operator's close ({@code fanin windows close}): an OPEN or HELD window is claimed at once with reason
     * {@link CloseReason#OPERATOR}, {@code complete} as it stands (see {@link Completeness#completeOnClose}) and the
     * note in the aggregate; the caller writes it under the version condition and flushes it like any claim. A window
     * in any other status is left alone ({@code write=false}): it is closing or closed already, by whichever close
     * won, and an operator close never makes a second one.
     */
    public Transition closeByOperator(WindowState state, String note, long watermark, Instant now) {
        if (TransitionTable.cell(state.status(), Stimulus.OPERATOR_CLOSE).kind() == TransitionTable.Kind.IGNORED) {
            return new Transition(state, false, List.of(), Transition.Action.NONE, null, state.dueAt());
        }
        WindowState.Builder s = state.toBuilder();
        claims.claim(s, new Claims.Close(CloseReason.OPERATOR, s.completeness.completeOnClose(CloseReason.OPERATOR), false, note), now);
        Transition claimed = decide(s, state, true, List.of(), watermark, now, Visitor.WRITER);
        return TransitionTable.checked(state.status(), Stimulus.OPERATOR_CLOSE,
                new Transition(claimed.next(), true, List.of(), Transition.Action.EMIT, claimed.timerDue(), claimed.listingDue()));
    }

    /**
     * Closes an accepting session early because its key holds more live sessions than one item may (reason
     * SESSION_LIMIT, flagged incomplete unless nothing is missing; under HOLD, dead-lettered if {@code atDeadline} says
     * so, as at the hard deadline). It is cut short like a session at its hard lifetime, so the events after it open a
     * session that continues it.
     */
    public Transition cutShort(WindowState state, long watermark, Instant now) {
        TransitionTable.require(state, Stimulus.SESSION_LIMIT_CUT);
        WindowState.Builder s = state.toBuilder();
        boolean complete = s.completeness.completeOnClose(CloseReason.SESSION_LIMIT);
        boolean deadLetter = !complete && claims.holdsIncomplete()
                && config.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER;
        claims.claim(s, new Claims.Close(CloseReason.SESSION_LIMIT, complete, deadLetter, null), now);
        Transition t = decide(s, state, true, List.of(), watermark, now, Visitor.WRITER);
        return TransitionTable.checked(state.status(), Stimulus.SESSION_LIMIT_CUT,
                new Transition(t.next(), true, List.of(), Transition.Action.EMIT, t.timerDue(), t.listingDue()));
    }

    /**
     * The commit after a successful emission, by the holder of {@code fence}. Returns a transition with
     * {@code write=false} when the fence is no longer the window's (another flusher took over, or the revision is
     * already committed): the caller's emission was a duplicate of the same aggregate id and nothing is written.
     */
    public Transition commit(WindowState state, long fence, long watermark, Instant now) {
        if (state.status() != WindowStatus.CLAIMED || state.fence() != fence) {
            return TransitionTable.checked(state.status(), Stimulus.COMMIT,
                    new Transition(state, false, List.of(), Transition.Action.NONE, null, state.dueAt()));
        }
        WindowState.Builder s = state.toBuilder();
        Claim claim = s.claim;
        s.committedRevision = claim.revision();
        s.revision = claim.revision() + 1;
        s.claim = null;
        s.leaseUntil = null;
        if (claim.reason() == CloseReason.SIZE_LIMIT && !s.kind.isSession()) {
            // The window continues with the revision it has counted since the claim. A session does not: the events
            // after it open a session that continues it.
            s.status = WindowStatus.OPEN;
        } else {
            s.status = WindowStatus.CLOSED;
        }
        return TransitionTable.checked(state.status(), Stimulus.COMMIT, decide(s, state, true, List.of(), watermark, now, Visitor.WRITER));
    }

    /**
     * Merges an absorbed session into the survivor (a new event bridged them). The survivor keeps its id; its hard
     * deadline becomes the earlier of the two, so merging never postpones a close.
     */
    public WindowState absorb(WindowState survivor, WindowState absorbed) {
        TransitionTable.require(survivor, Stimulus.ABSORB);
        TransitionTable.require(absorbed, Stimulus.ABSORB);
        WindowState.Builder s = survivor.toBuilder();
        s.bounds = s.bounds.span(absorbed.bounds());
        s.eventIds.addAll(absorbed.eventIds());
        s.aggregates = s.aggregates.merge(absorbed.aggregates());
        s.completeness = mergeCompleteness(survivor, absorbed);
        s.revisionEvents += absorbed.revisionEvents();
        s.openedAt = min(s.openedAt, absorbed.openedAt());
        s.hardDeadline = min(s.hardDeadline, absorbed.hardDeadline());
        s.firstEventTime = min(s.firstEventTime, absorbed.firstEventTime());
        s.lastEventTime = max(s.lastEventTime, absorbed.lastEventTime());
        s.lastTakenTime = max(s.lastTakenTime, absorbed.lastTakenTime());
        s.lastArrival = max(s.lastArrival, absorbed.lastArrival());
        s.lateEvents += absorbed.lateEvents();
        if (s.continues == null) {
            s.continues = absorbed.continues();
        }
        Set<String> ids = new HashSet<>(s.absorbed);
        ids.add(absorbed.ref().windowId());
        ids.addAll(absorbed.absorbed());
        // Informational (logs, the simulation's checks): the earliest few are kept, so the state stays bounded.
        s.absorbed = new ArrayList<>(ids.stream().sorted().limit(MAX_ABSORBED_LISTED).toList());
        // The merged session's deadline may be earlier than the chain was armed for: the merge starts a new chain.
        s.timer = null;
        return s.build();
    }

    private Completeness mergeCompleteness(WindowState a, WindowState b) {
        // Session pipelines with completeness tracking re-observe nothing here: completeness of sessions is defined by
        // their events, and merged sessions keep the survivor's expectation with the union of members and seen counts.
        return a.completeness().mergedWith(b.completeness());
    }

    private WindowFacts facts(WindowState.Builder s) {
        boolean sizeReached = config.bounds().onOverflow() == Bounds.Overflow.SPLIT
                && s.revisionEvents >= config.bounds().maxEventsPerWindow();
        return new WindowFacts(s.kind, s.bounds, s.revisionEvents, s.completeness, s.hardDeadline, sizeReached);
    }

    static Instant min(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    static Instant max(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }
}
