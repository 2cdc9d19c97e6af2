package dev.fanin.core.machine;

import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.Retirement;
import dev.fanin.core.event.Event;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.trigger.Triggers;
import dev.fanin.core.watermark.Watermark;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * The window state machine of one pipeline. Pure: every method takes the state as read, the watermark and the
 * processing time, and returns a {@link Transition} value that the caller writes under the store's version condition
 * and then executes. Nothing here reads a clock or does I/O.
 *
 * <p>The life cycle is {@link TransitionTable}: every (status, stimulus) cell, checked on each decision. The rules that
 * make its promises hold are each stated once, where they are enforced: the claim, emit and commit in {@link Claims}
 * and docs/FLUSH.md; which trigger closes a window (the hard lifetime among them, so every window closes) and when it
 * is looked at again in {@link dev.fanin.core.trigger.Triggers}.
 */
public final class WindowMachine {

    /** The default granularity of stored due times (and of the due buckets that list them). */
    public static final Duration DEFAULT_DUE_GRANULARITY = Duration.ofSeconds(10);

    /**
     * The room a correction is due in at the latest before its window expires (see {@link #correctionMargin}): the hourly
     * sweep over every due-bucket shard reaches a due window within it, whatever the sweep schedule, if its timer is lost.
     */
    public static final Duration CORRECTION_MARGIN = Duration.ofHours(1);

    private final PipelineConfig config;
    private final Duration lease;
    private final long dueGranularityMillis;
    private final Retirement retired;
    private final EventAdmission admission;
    private final Claims claims;
    private final Decisions decisions;

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
        this(config, lease, dueGranularityMillis, retired, null);
    }

    private WindowMachine(PipelineConfig config, Duration lease, long dueGranularityMillis, Retirement retired, Watermark scheduling) {
        this.config = Objects.requireNonNull(config, "config");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.dueGranularityMillis = dueGranularityMillis;
        this.retired = retired;
        this.admission = new EventAdmission(config);
        this.claims = new Claims(config, lease, retired);
        this.decisions = new Decisions(config, lease, claims, new DueSchedule(dueGranularityMillis), scheduling);
    }

    /**
     * This machine for a pipeline no longer configured: it decides as before, and every aggregate it claims carries
     * {@code retired}, frozen with the claim (a revision claimed before the change is re-emitted without it).
     */
    public WindowMachine retired(Retirement retirement) {
        return new WindowMachine(config, lease, dueGranularityMillis, Objects.requireNonNull(retirement, "retirement"));
    }

    /**
     * This machine scheduling open windows by {@code watermark}, the pipeline's as every visitor reads it (a batch
     * decides at its own, which its redeliveries may hold further back): an open window's next check is when that
     * watermark could pass its end, and while a backlog's cap holds it, no later than when the cap may lift and the
     * uncapped watermark would (see {@link Decisions}). Without it a window written during a backlog waited as long
     * as the backlog was deep, and a session met its hard deadline and was cut there, its bounds depending on the
     * order of delivery.
     */
    public WindowMachine scheduledBy(Watermark watermark) {
        return new WindowMachine(config, lease, dueGranularityMillis, retired, Objects.requireNonNull(watermark, "watermark"));
    }

    public PipelineConfig config() {
        return config;
    }

    /** A new, empty window created at processing time {@code now}; not yet stored (version 0). */
    public WindowState open(WindowRef ref, Interval bounds, Instant now) {
        return open(ref, bounds, now, null);
    }

    /**
     * A window stored only to keep too-late verdicts ({@link WindowState#keepsVerdictsOnly}), met by events again: a
     * new window created at {@code now}, not yet opened (version 0), that keeps those verdicts. So an event in time by
     * its own watermark opens it as the first of its events would have (its triggers, the open-window bound, its
     * holds), and one too late adds its verdict to the window kept closed. It is written over the stored item, whose
     * expiry it keeps until it opens ({@link #offer}): the store's slices of its ids carry the expiry they were written
     * with.
     */
    private WindowState reopened(WindowState kept, Instant now) {
        WindowState.Builder s = open(kept.ref(), kept.bounds(), now).toBuilder();
        s.eventIds.addAll(kept.eventIds());
        s.layout = kept.layout();
        s.expiresAt = kept.expiresAt();
        return s.build();
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
     * How long before its window expires (besides a lease to emit it in) a pending correction is due at the latest,
     * whatever {@code late.correctionDelay} says: {@link #CORRECTION_MARGIN}, or the retention applied if that is shorter.
     * A window's expiry is a lease and that retention past the latest correction the configuration it opened under makes,
     * so under that configuration the delay always comes first; a longer delay published since is cut short for it.
     */
    public static Duration correctionMargin(PipelineConfig config) {
        Duration retention = config.effectiveRetention();
        return retention.compareTo(CORRECTION_MARGIN) < 0 ? retention : CORRECTION_MARGIN;
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
        return ingest(state, events, watermark, now, SessionMerge.unclippedBounds(config.window(), state, events));
    }

    /**
     * Offers events to a session whose bounds after this batch are {@code bounds} (the planner's target, covering every
     * event offered; equal to the stored bounds for a flushed session, whose bounds are frozen). Every event is judged
     * against that end, so the outcome does not depend on the order of the batch; the session takes those bounds once
     * an event is counted.
     */
    public Transition ingest(WindowState state, List<Event> events, long watermark, Instant now, Interval bounds) {
        WindowState offered = state.keepsVerdictsOnly() ? reopened(state, now) : state;
        Stimulus stimulus = overflows(offered, events) ? Stimulus.SIZE_LIMIT_SPLIT : Stimulus.EVENTS;
        TransitionTable.require(offered, stimulus);
        return TransitionTable.checked(offered.status(), stimulus, offer(offered, events, watermark, now, bounds));
    }

    /**
     * Merges the sessions {@code absorbed} into {@code survivor} and offers it the events that bridged them (see
     * {@link #ingest(WindowState, List, long, Instant, Interval)}): one transition, whose write removes the absorbed
     * sessions with the survivor's change. An event not counted bridges nothing: then nothing is merged or written.
     * With nothing to absorb, this is {@link #ingest(WindowState, List, long, Instant, Interval)}.
     */
    public Transition merge(Merge merge, List<Event> events, long watermark, Instant now) {
        WindowState merged = merge.survivor();
        for (WindowState other : merge.absorbed()) {
            merged = SessionMerge.absorb(merged, other);
        }
        Transition t = ingest(merged, events, watermark, now, merge.bounds());
        if (!t.counted() && !merge.absorbed().isEmpty()) {
            return Transition.none(merge.survivor(), t.outcomes());
        }
        return new Transition(t.next(), t.write(), t.outcomes(), t.action(), t.timerDue(), t.listingDue(),
                merge.absorbed().stream().map(w -> w.ref().windowId()).toList());
    }

    /**
     * Cuts an accepting session at the size bound (SIZE_LIMIT, flagged unless nothing is missing), as a session that
     * fills is cut: its bounds freeze just after its last event, and the events after it open a session that continues
     * it. For a merge the size bound refused: a session does not split as a time window does.
     */
    public Transition cutAtTheSizeBound(WindowState state, long watermark, Instant now) {
        return cut(state, CloseReason.SIZE_LIMIT, false, watermark, now);
    }

    /**
     * A session as the plan has it: the one that survives, the sessions it absorbs (none when it only grows), and its
     * planned bounds.
     */
    public record Merge(WindowState survivor, List<WindowState> absorbed, Interval bounds) {

        public Merge {
            absorbed = List.copyOf(absorbed);
        }
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
        boolean counted = false;
        boolean split = false;
        boolean hadRoom = state.revisionEvents() < config.bounds().maxEventsPerWindow();
        for (Event event : ordered) {
            EventOutcome outcome = admission.offer(s, event, watermark, now, bounds, hadRoom);
            if (outcome.disposition() == EventOutcome.Disposition.RETRY && !split && splitsNow(s, watermark, now)) {
                // The revision is full: cut it here and count the rest of the batch in the next one.
                split = claims.close(s, CloseReason.SIZE_LIMIT, EnumSet.of(CloseReason.SIZE_LIMIT), now) == Transition.Action.EMIT;
                outcome = admission.offer(s, event, watermark, now, bounds, hadRoom);
            }
            outcomes.add(outcome);
            counted |= outcome.disposition().counted();
            changed |= counted || outcome.recorded() || split;
        }
        List<EventOutcome> inOfferOrder = inOfferOrder(events, outcomes);
        if (state.version() == 0 && !counted) {
            // A window never opens empty: one whose events were all too late is stored for their verdicts alone, closed
            // at once (no slot, nothing due, nothing to emit), so that a later copy is too late as well.
            if (!changed) {
                return Transition.none(state, inOfferOrder);
            }
            s.status = WindowStatus.CLOSED;
        } else if (state.version() == 0) {
            // It opens: its items live as a new window's do (one kept for verdicts may have been stored long before).
            Instant expiry = expiryOfWindowOpenedAt(s.openedAt);
            s.expiresAt = expiry.isAfter(s.expiresAt) ? expiry : s.expiresAt;
        }
        Transition t = decisions.decide(s, changed, new Decisions.Step(state, inOfferOrder, watermark, now, Visitor.WRITER));
        return split ? t.claiming(Transition.Action.EMIT) : t;
    }

    /** The outcomes in the order the events were offered, so callers can pair them with their messages. */
    private static List<EventOutcome> inOfferOrder(List<Event> events, List<EventOutcome> outcomes) {
        List<EventOutcome> left = new ArrayList<>(outcomes);
        List<EventOutcome> ordered = new ArrayList<>();
        for (Event e : events) {
            for (int i = 0; i < left.size(); i++) {
                if (left.get(i).event() == e) {
                    ordered.add(left.remove(i));
                    break;
                }
            }
        }
        return ordered;
    }

    /**
     * Whether a time window that refused an event for its size bound splits now: it accepts events, splits at the
     * bound ({@code onOverflow: split}), and no trigger that precedes SIZE_LIMIT holds (that one closes it instead,
     * in the decision after the batch).
     */
    private boolean splitsNow(WindowState.Builder s, long watermark, Instant now) {
        boolean accepting = s.status == WindowStatus.OPEN || s.status == WindowStatus.HELD;
        return accepting && !s.kind.isSession() && config.bounds().onOverflow() == Bounds.Overflow.SPLIT
                && Triggers.winner(Triggers.holding(config, decisions.facts(s), watermark, now)).orElse(null) == CloseReason.SIZE_LIMIT;
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
        return TransitionTable.checked(state.status(), visitOf(state, now),
                decisions.decide(state.toBuilder(), false, new Decisions.Step(state, List.of(), watermark, now, visitor)));
    }

    /**
     * An operator's close ({@code fanin windows close}): an OPEN or HELD window is claimed at once with reason
     * {@link CloseReason#OPERATOR}, {@code complete} as it stands (see {@link Completeness#completeOnClose}) and the
     * note in the aggregate; the caller writes it under the version condition and flushes it like any claim. An empty
     * split continuation closes without an emission, as under any trigger; a continuation whose late events are held
     * ({@link WindowState#heldContinuation}) is claimed as a HELD window is. A window in any other status is left
     * alone ({@code write=false}): it is closing or closed already, by whichever close won, and an operator close
     * never makes a second one.
     */
    public Transition closeByOperator(WindowState state, String note, long watermark, Instant now) {
        if (TransitionTable.cell(state.status(), Stimulus.OPERATOR_CLOSE).kind() == TransitionTable.Kind.IGNORED) {
            return Transition.none(state, List.of());
        }
        if (state.status() == WindowStatus.CLOSED && !state.heldContinuation(config)) {
            return TransitionTable.checked(state.status(), Stimulus.OPERATOR_CLOSE, Transition.none(state, List.of()));
        }
        WindowState.Builder s = state.toBuilder();
        if (claims.closedUnemittedIfEmpty(s, CloseReason.OPERATOR)) {
            return TransitionTable.checked(state.status(), Stimulus.OPERATOR_CLOSE, written(s, state, watermark, now));
        }
        claims.claim(s, new Claims.Close(CloseReason.OPERATOR, s.completeness.completeOnClose(CloseReason.OPERATOR), false, note), now);
        return TransitionTable.checked(state.status(), Stimulus.OPERATOR_CLOSE, written(s, state, watermark, now).claiming(Transition.Action.EMIT));
    }

    /**
     * Closes an accepting session early because its key holds more live sessions than one item may (reason
     * SESSION_LIMIT, flagged incomplete unless nothing is missing; under HOLD, dead-lettered if {@code atDeadline} says
     * so, as at the hard deadline). It is cut short like a session at its hard lifetime, so the events after it open a
     * session that continues it.
     */
    public Transition cutShort(WindowState state, long watermark, Instant now) {
        boolean deadLetter = !state.completeness().completeOnClose(CloseReason.SESSION_LIMIT) && config.holdsIncomplete()
                && config.incomplete().atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER;
        return cut(state, CloseReason.SESSION_LIMIT, deadLetter, watermark, now);
    }

    /** Claims an accepting session at once for {@code reason}, cut short (its bounds freeze after its last event). */
    private Transition cut(WindowState state, CloseReason reason, boolean deadLetter, long watermark, Instant now) {
        TransitionTable.require(state, Stimulus.SESSION_LIMIT_CUT);
        WindowState.Builder s = state.toBuilder();
        claims.claim(s, new Claims.Close(reason, s.completeness.completeOnClose(reason), deadLetter, null), now);
        return TransitionTable.checked(state.status(), Stimulus.SESSION_LIMIT_CUT, written(s, state, watermark, now).claiming(Transition.Action.EMIT));
    }

    /**
     * The commit after a successful emission, by the holder of {@code fence}. Returns a transition with
     * {@code write=false} when the fence is no longer the window's (another flusher took over, or the revision is
     * already committed): the caller's emission was a duplicate of the same aggregate id and nothing is written.
     */
    public Transition commit(WindowState state, long fence, long watermark, Instant now) {
        if (state.status() != WindowStatus.CLAIMED || state.fence() != fence) {
            return TransitionTable.checked(state.status(), Stimulus.COMMIT, Transition.none(state, List.of()));
        }
        WindowState.Builder s = state.toBuilder();
        Claim claim = s.claim;
        s.committedRevision = claim.revision();
        s.committedDeadLettered = claim.deadLetter();
        s.revision = claim.revision() + 1;
        s.closedUnemitted = null;
        s.claim = null;
        s.leaseUntil = null;
        if (claim.reason() == CloseReason.SIZE_LIMIT && !s.kind.isSession()) {
            // The window continues with the revision it has counted since the claim. A session does not: the events
            // after it open a session that continues it.
            s.status = WindowStatus.OPEN;
        } else {
            s.status = WindowStatus.CLOSED;
            if (!s.kind.isSession() && config.bounds().onOverflow() == Bounds.Overflow.SPLIT) {
                continueIfFull(s, claim);
            }
        }
        return TransitionTable.checked(state.status(), Stimulus.COMMIT, written(s, state, watermark, now));
    }

    /**
     * A time window under {@code onOverflow: split} that closed with a full revision (a trigger that precedes SIZE_LIMIT
     * held as it filled, e.g. its end had passed): a correction of that revision could never hold one more event, so
     * its late events continue it in a revision of their own, as a split's would, that is closed already (by the
     * trigger of the window's latest close that was not a correction, which it remembers for this): emitted with that
     * reason and the window's completeness, correcting nothing. Only when no correction waits: events counted since
     * the claim are a correction of the full revision, emitted first. Not after a revision dead-lettered (held
     * incomplete to its deadline): the target never had it, so a part to add to it would mislead; its late events wait
     * in SQS and end in the side output or the input's dead-letter queue, with their reason, as the revision did.
     */
    private void continueIfFull(WindowState.Builder s, Claim claim) {
        if (claim.reason() != CloseReason.LATE_CORRECTION) {
            s.closedBy = claim.reason();
        }
        boolean full = s.revisionEvents >= config.bounds().maxEventsPerWindow();
        if (full && s.pendingSince == null && s.closedBy != null && !claim.deadLetter()) {
            Claims.startEmpty(s, config);
            s.closedUnemitted = s.closedBy;
        }
    }

    /** {@code s}, changed by the caller from {@code before}, decided again and written by a writer. */
    private Transition written(WindowState.Builder s, WindowState before, long watermark, Instant now) {
        return decisions.decide(s, true, new Decisions.Step(before, List.of(), watermark, now, Visitor.WRITER));
    }
}
