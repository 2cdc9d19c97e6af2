package dev.fanin.core.text;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** ISO-8601 UTC timestamps with exactly three fraction digits, e.g. {@code 2024-05-01T12:00:00.000Z}. */
public final class IsoMillis {

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private IsoMillis() {
    }

    public static String format(long epochMillis) {
        return FORMAT.format(Instant.ofEpochMilli(epochMillis));
    }

    public static String format(Instant instant) {
        return format(instant.toEpochMilli());
    }

    /** Parses any ISO-8601 instant (as written by {@link #format}). */
    public static Instant parse(String text) {
        return Instant.parse(text);
    }
}
