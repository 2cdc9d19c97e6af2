package dev.fanin.core.window;

import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Assigns an event time to the fixed windows that contain it. Pure: the result depends on the spec and the event
 * time only. Windows are half-open {@code [start, end)} in event-time epoch milliseconds, so an event exactly at a
 * window's end belongs to the next window.
 *
 * <ul>
 *   <li>Tumbling: exactly one window, {@code start = floorDiv(t - offset, size) * size + offset}.</li>
 *   <li>Sliding: every window {@code [k * slide, k * slide + size)} containing {@code t}, in ascending start order;
 *       there are exactly {@code size / slide} of them (the size must be a multiple of the slide).</li>
 *   <li>Session: not assignable from one event time; see {@link SessionPlanner}.</li>
 * </ul>
 */
public final class WindowAssigner {

    private WindowAssigner() {
    }

    /**
     * @throws IllegalArgumentException for a session spec, a non-positive size or slide, a sliding size that is not
     *                                  a multiple of its slide, or an event time whose window would not fit in a long
     */
    public static List<Interval> assign(WindowSpec spec, long eventTimeMillis) {
        if (spec instanceof WindowSpec.Tumbling tumbling) {
            return List.of(tumbling(tumbling, eventTimeMillis));
        }
        if (spec instanceof WindowSpec.Sliding sliding) {
            return sliding(sliding, eventTimeMillis);
        }
        throw new IllegalArgumentException("session windows are not assigned per event; use SessionPlanner (spec " + spec + ")");
    }

    private static Interval tumbling(WindowSpec.Tumbling spec, long t) {
        long size = positiveMillis(spec.size(), "tumbling size");
        long offset = spec.offset() == null ? 0 : spec.offset().toMillis();
        // start = floorDiv(t - offset, size) * size + offset, written without computing t - offset (which may overflow):
        // the distance from the start is (t - offset) mod size, and that equals (t mod size - offset mod size) mod size.
        long sinceStart = Math.floorMod(Math.floorMod(t, size) - Math.floorMod(offset, size), size);
        long start = t - sinceStart;
        if (start > t) {
            throw new IllegalArgumentException("event time " + t + " is too early: its window would start before the smallest time");
        }
        return window(start, size, t);
    }

    private static List<Interval> sliding(WindowSpec.Sliding spec, long t) {
        long size = positiveMillis(spec.size(), "sliding size");
        long slide = positiveMillis(spec.slide(), "sliding slide");
        if (size % slide != 0) {
            throw new IllegalArgumentException("sliding size " + spec.size() + " must be a multiple of slide " + spec.slide());
        }
        long count = size / slide;
        long latestStart = t - Math.floorMod(t, slide);
        if (latestStart > t) {
            throw new IllegalArgumentException("event time " + t + " is too early for sliding windows of " + spec.size());
        }
        List<Interval> windows = new ArrayList<>((int) Math.min(count, 1024));
        for (long k = count - 1; k >= 0; k--) {
            long start = latestStart - k * slide;
            if (start > latestStart) {
                throw new IllegalArgumentException("event time " + t + " is too early for sliding windows of " + spec.size());
            }
            windows.add(window(start, size, t));
        }
        return List.copyOf(windows);
    }

    private static Interval window(long start, long size, long t) {
        long end = start + size;
        if (end < start) {
            throw new IllegalArgumentException("event time " + t + " is too late: its window would end after the largest time");
        }
        return new Interval(start, end);
    }

    private static long positiveMillis(Duration duration, String what) {
        if (duration == null || duration.toMillis() <= 0) {
            throw new IllegalArgumentException(what + " must be at least 1 ms, got " + duration);
        }
        return duration.toMillis();
    }
}
