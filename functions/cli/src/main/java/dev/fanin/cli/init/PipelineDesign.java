package dev.fanin.cli.init;

import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.Durations;
import dev.fanin.core.config.IncompletePolicy;
import java.time.Duration;

/**
 * The pipeline's choices, derived from the designer's answers; each comes with the sentence that justifies it, which
 * {@link PipelineYaml} writes next to it as a comment. Pure.
 *
 * @param windowLength      the session gap, or the window size
 * @param outOfOrderness    the watermark's bounded out-of-orderness
 * @param idleAfter         when the watermark starts moving with processing time
 * @param allowedLateness   how long late events still correct a fired window
 * @param maxLifetime       the hard lifetime: the deadline, or a backstop derived from the window
 * @param policy            the incomplete-window policy
 * @param maxEventsPerWindow the events-per-window bound, sized from the peak rate
 * @param retention         how long closed windows are kept
 * @param maxPast           an event-time tolerance wider than the default, or null for the default
 */
public record PipelineDesign(
        Duration windowLength,
        Duration outOfOrderness,
        Duration idleAfter,
        Duration allowedLateness,
        Duration maxLifetime,
        boolean lifetimeIsDeadline,
        IncompletePolicy.Mode policy,
        int maxEventsPerWindow,
        long estimatedEventsPerWindow,
        Duration retention,
        Duration maxPast) {

    /** A window should not outlive this many quiet gaps: a storm that never calms down is cut and reported. */
    static final int SESSION_LIFETIME_GAPS = 20;
    /** Room above the expected events per window before the overflow policy applies. */
    static final int HEADROOM = 2;
    /** The largest count trigger the loader accepts. */
    static final int MOST_EVENTS = 10_000_000;

    /**
     * @throws IllegalArgumentException when the answers cannot make a valid pipeline (a deadline no longer than the
     *                                  window, with nothing that could close a window sooner)
     */
    public static PipelineDesign of(InitAnswers a) {
        Duration length = switch (a.grouping()) {
            case QUIET -> a.quietGap();
            case FIXED, OVERLAPPING -> a.size();
        };
        Duration ooo = a.maxDelay();
        Duration idleStep = a.grouping() == InitAnswers.Grouping.OVERLAPPING ? a.slide() : length;
        Duration idle = min(ConfigDefaults.IDLE_AFTER, idleStep);
        Duration lateness = a.maxDelay();
        Duration lifetime;
        boolean deadline = a.deadline() != null;
        if (deadline) {
            if (!a.knowsCompleteness() && a.deadline().compareTo(length) <= 0) {
                throw new IllegalArgumentException("a deadline of " + Durations.format(a.deadline()) + " is not longer than the "
                        + (a.grouping() == InitAnswers.Grouping.QUIET ? "quiet gap" : "window size") + " " + Durations.format(length)
                        + ", and nothing tells fanin a batch is complete sooner, so every window would be cut short by the deadline; "
                        + "give a longer deadline, or a batch size (--expected-count, --expected-count-path) or an end marker (--sentinel-matches)");
            }
            if (!a.knowsCompleteness() && a.deadline().compareTo(length.plus(ooo)) <= 0) {
                // The watermark passes a window's end only the out-of-orderness later, and the loader wants the deadline
                // beyond that: a window waits half the time its deadline leaves after its end; events later than that,
                // up to the delay given, are corrections (the lateness stays that delay).
                ooo = Duration.ofMillis(a.deadline().minus(length).toMillis() / 2);
            }
            lifetime = a.deadline();
        } else if (a.grouping() == InitAnswers.Grouping.QUIET) {
            lifetime = max(length.multipliedBy(SESSION_LIFETIME_GAPS), length.plus(ooo).plus(idle).multipliedBy(2));
        } else {
            lifetime = length.multipliedBy(2).plus(ooo).plus(idle);
        }
        lifetime = min(lifetime, Durations.LONGEST);
        IncompletePolicy.Mode policy;
        if (!a.knowsCompleteness()) {
            policy = IncompletePolicy.Mode.FIRE_PARTIAL;
        } else if (a.incompleteHarmful()) {
            policy = IncompletePolicy.Mode.HOLD;
        } else {
            policy = IncompletePolicy.Mode.FIRE_AND_RECONCILE;
        }
        Duration span = a.grouping() == InitAnswers.Grouping.QUIET ? lifetime : length;
        double estimate = Math.ceil(a.peakRate() * span.toMillis() / 1000.0);
        long estimated = estimate >= MOST_EVENTS ? MOST_EVENTS : (long) estimate;
        long bound = Math.max(ConfigDefaults.MAX_EVENTS_PER_WINDOW, Math.min((long) MOST_EVENTS, estimated * HEADROOM));
        if (a.expectedCount() != null) {
            bound = Math.max(bound, a.expectedCount());
        }
        Duration retention = max(ConfigDefaults.RETENTION, lateness.plus(Duration.ofDays(1)));
        Duration maxPast = a.maxDelay().compareTo(ConfigDefaults.MAX_PAST) >= 0 ? a.maxDelay().plus(Duration.ofDays(1)) : null;
        return new PipelineDesign(length, ooo, idle, lateness, lifetime, deadline, policy, (int) bound, estimated, retention, maxPast);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
