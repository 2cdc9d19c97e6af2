package dev.fanin.cli;

import dev.fanin.core.config.Durations;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An arrival written relative to the start of a trace or traffic file ({@code "at": "+1.5s"}), as {@code fanin local
 * --events} and {@code fanin replay --trace} both read it: an optional {@code +}, then a duration such as
 * {@code 2s}, {@code 1.5s}, {@code 250ms}, {@code 10m} or ISO-8601 {@code PT2S}.
 */
public final class ArrivalOffset {

    private static final Pattern DECIMAL_SECONDS = Pattern.compile("(\\d+)\\.(\\d{1,3})s");

    private ArrivalOffset() { }

    /** The offset {@code text} means, or empty when it is not one (it may be an instant then). */
    public static Optional<Duration> parse(String text) {
        String t = text.strip();
        if (t.startsWith("+")) {
            t = t.substring(1);
        }
        Matcher decimal = DECIMAL_SECONDS.matcher(t);
        if (decimal.matches()) {
            String millis = (decimal.group(2) + "00").substring(0, 3);
            return Optional.of(Duration.ofSeconds(Long.parseLong(decimal.group(1))).plusMillis(Long.parseLong(millis)));
        }
        try {
            Duration d = Durations.parse(t);
            return d.isNegative() ? Optional.empty() : Optional.of(d);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
