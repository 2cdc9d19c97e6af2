package dev.fanin.core.watermark;

import java.time.Instant;

/**
 * A pipeline's watermark as read at one moment, with what the window machine needs to know about its future: while
 * backlog evidence caps it ({@link Backlog}), it stands still whatever the clock does, and may jump when the evidence
 * lapses. A window whose next check assumes a watermark that moves with the clock would then be looked at again only
 * as late as the backlog was deep.
 *
 * @param millis     the watermark, event-time epoch ms ({@link Watermarks#NO_WATERMARK} when none)
 * @param heldUntil  while a backlog's cap holds it below its own value, the next moment the cap may lift; else null
 */
public record Watermark(long millis, Instant heldUntil) {

    /** A watermark no backlog holds. */
    public static Watermark free(long millis) {
        return new Watermark(millis, null);
    }
}
