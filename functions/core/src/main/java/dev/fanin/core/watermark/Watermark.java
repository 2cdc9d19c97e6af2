package dev.fanin.core.watermark;

import java.time.Instant;

/**
 * A pipeline's watermark as read at one moment, with what the window machine needs to know about its future: while
 * backlog evidence caps it ({@link Backlog}), it stands still whatever the clock does, and when the evidence lapses it
 * may jump, at most to its uncapped value. A window whose next check assumed a watermark moving with the clock was
 * looked at again only as late as the backlog was deep.
 *
 * @param millis         the watermark, event-time epoch ms ({@link Watermarks#NO_WATERMARK} when none)
 * @param uncappedMillis what it would be without the backlog's cap (equal to {@code millis} when none holds it down)
 * @param heldUntil      while the cap holds it down, the next moment the cap may lift; else null
 */
public record Watermark(long millis, long uncappedMillis, Instant heldUntil) {

    /** A watermark no backlog holds. */
    public static Watermark free(long millis) {
        return new Watermark(millis, millis, null);
    }
}
