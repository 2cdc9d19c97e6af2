package dev.fanin.core.window;

/**
 * Saturating arithmetic on epoch milliseconds. Time values near {@code Long.MIN_VALUE}/{@code Long.MAX_VALUE} stand
 * for "before everything"/"after everything" (e.g. the watermark of a pipeline that never saw an event), so sums
 * clamp to the range instead of wrapping around and turning "never" into "long ago".
 */
public final class EventTimeMath {

    private EventTimeMath() {
    }

    /** {@code a + b}, clamped to {@code [Long.MIN_VALUE, Long.MAX_VALUE]}. */
    public static long plus(long a, long b) {
        long sum = a + b;
        // Overflow iff both operands have the same sign and the result's sign differs (Hacker's Delight 2-12).
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /** {@code a - b}, clamped to {@code [Long.MIN_VALUE, Long.MAX_VALUE]}. */
    public static long minus(long a, long b) {
        long difference = a - b;
        if (((a ^ b) & (a ^ difference)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return difference;
    }
}
