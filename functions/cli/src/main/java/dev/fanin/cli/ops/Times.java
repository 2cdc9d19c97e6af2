package dev.fanin.cli.ops;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Times as an operator reads them: ISO-8601 UTC to the second, and "in 4m 10s" / "12s ago". */
final class Times {

    private Times() {
    }

    /** An epoch-millisecond time; the extremes (a watermark with no event yet) are "none". */
    static String iso(long epochMillis) {
        if (epochMillis == Long.MIN_VALUE || epochMillis == Long.MAX_VALUE) {
            return "none";
        }
        return iso(Instant.ofEpochMilli(epochMillis));
    }

    static String iso(Instant instant) {
        if (instant == null) {
            return "-";
        }
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String relative(Instant instant, Instant now) {
        if (instant == null) {
            return "-";
        }
        Duration d = Duration.between(now, instant);
        return d.isNegative() ? compact(d.negated()) + " ago (" + iso(instant) + ")" : "in " + compact(d) + " (" + iso(instant) + ")";
    }

    /** 0s, 42s, 4m 10s, 3h 05m, 2d 04h. */
    static String compact(Duration d) {
        long s = d.getSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m " + String.format("%02ds", s % 60);
        }
        if (s < 86_400) {
            return (s / 3600) + "h " + String.format("%02dm", (s % 3600) / 60);
        }
        return (s / 86_400) + "d " + String.format("%02dh", (s % 86_400) / 3600);
    }
}
