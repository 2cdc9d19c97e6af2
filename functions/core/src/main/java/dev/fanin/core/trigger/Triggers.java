package dev.fanin.core.trigger;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.EventTimeMath;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * The close triggers as pure functions: which hold now, which one wins, and when to look again. A decision is a
 * value; nothing here keeps state.
 *
 * <p>Two clocks: {@code watermarkMillis} is event time (see {@code Watermarks}); {@code now} and the hard deadline are
 * processing time.
 */
public final class Triggers {

    /**
     * Which trigger's reason a revision records when several hold at once, first wins: what the window is known to
     * hold (completeness, sentinel, count) beats event time (watermark, session gap), which beats processing time (hard
     * lifetime); the size bound comes last, because it cuts a revision that no other trigger would close yet.
     * Stated here once (docs/SEMANTICS.md, "Close triggers", links it); {@link CloseReason}'s declaration order means
     * nothing. Only the triggers are ranked: SESSION_LIMIT, LATE_CORRECTION and OPERATOR are decisions, never in
     * {@link #holding}.
     */
    public static final List<CloseReason> PRECEDENCE = List.of(
            CloseReason.EXPECTED_COMPLETE,
            CloseReason.SENTINEL,
            CloseReason.COUNT,
            CloseReason.WATERMARK,
            CloseReason.SESSION_GAP,
            CloseReason.HARD_LIFETIME,
            CloseReason.SIZE_LIMIT);

    private Triggers() {
    }

    /**
     * Every trigger that holds for the window now:
     * <ul>
     *   <li>EXPECTED_COMPLETE: the expected count is known and reached (every member, with {@code memberPath});</li>
     *   <li>SENTINEL: the sentinel arrived and the pipeline's sentinel carries no expected count;</li>
     *   <li>COUNT: {@code distinctEvents >= triggers.count};</li>
     *   <li>WATERMARK (tumbling, sliding) and SESSION_GAP (session): {@code watermark >= bounds.end};</li>
     *   <li>HARD_LIFETIME: {@code now >= hardDeadline};</li>
     *   <li>SIZE_LIMIT: the size bound is reached.</li>
     * </ul>
     * LATE_CORRECTION is not a trigger; the state machine assigns it to correction revisions.
     */
    public static EnumSet<CloseReason> holding(PipelineConfig config, WindowFacts facts, long watermarkMillis, Instant now) {
        EnumSet<CloseReason> holding = EnumSet.noneOf(CloseReason.class);
        if (facts.completeness().expectedReached()) {
            holding.add(CloseReason.EXPECTED_COMPLETE);
        }
        if (facts.completeness().sentinelCompleted()) {
            holding.add(CloseReason.SENTINEL);
        }
        Integer count = config.triggers().count();
        if (count != null && facts.distinctEvents() >= count) {
            holding.add(CloseReason.COUNT);
        }
        if (watermarkMillis >= facts.bounds().endMillis()) {
            holding.add(facts.kind().isSession() ? CloseReason.SESSION_GAP : CloseReason.WATERMARK);
        }
        if (!now.isBefore(facts.hardDeadline())) {
            holding.add(CloseReason.HARD_LIFETIME);
        }
        if (facts.sizeBoundReached()) {
            holding.add(CloseReason.SIZE_LIMIT);
        }
        return holding;
    }

    /** The reason recorded when several triggers hold at once: the first of {@link #PRECEDENCE} that holds. */
    public static Optional<CloseReason> winner(EnumSet<CloseReason> holding) {
        return PRECEDENCE.stream().filter(holding::contains).findFirst();
    }

    /**
     * The earliest processing time at which a time-based trigger (event-time end or hard lifetime) could hold,
     * assuming the watermark advances at least as fast as processing time from now on:
     * {@code min(hardDeadline, now + max(0, end - watermark))}. Never after the hard deadline; {@code now} when the
     * event-time end has already passed. Used to arm timers and to set the stored due time that due buckets list.
     */
    public static Instant nextCheck(PipelineConfig config, WindowFacts facts, long watermarkMillis, Instant now) {
        long untilEnd = Math.max(0, EventTimeMath.minus(facts.bounds().endMillis(), watermarkMillis));
        Instant deadline = facts.hardDeadline();
        long untilDeadline = EventTimeMath.minus(deadline.toEpochMilli(), now.toEpochMilli());
        if (untilEnd >= untilDeadline) {
            return deadline;
        }
        return now.plusMillis(untilEnd);
    }
}
