package dev.fanin.core.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration syntax of the configuration: a whole number with a unit ({@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 2h}, {@code 1d}) or ISO-8601 ({@code PT5M}).
 *
 * <p>Every duration is a whole number of milliseconds and at most {@link #LONGEST}, so that adding one to an
 * epoch-millisecond timestamp can never overflow. There is no "infinite": every window must close.
 */
public final class Durations {

    /** The longest duration accepted anywhere in a configuration. */
    public static final Duration LONGEST = Duration.ofDays(3650);

    private static final Pattern WITH_UNIT = Pattern.compile("(-?)(\\d{1,18})(ms|s|m|h|d)");
    private static final Set<String> INFINITE_WORDS = Set.of("never", "infinite", "infinity", "inf", ".inf", "forever", "none", "unlimited");

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @throws IllegalArgumentException with a message that quotes {@code text}, says what is wrong and how to write it
     */
    public static Duration parse(String text) {
        String trimmed = text.strip();
        Matcher withUnit = WITH_UNIT.matcher(trimmed);
        Duration parsed;
        if (withUnit.matches()) {
            parsed = fromUnit(text, withUnit.group(1).isEmpty() ? 1 : -1, Long.parseLong(withUnit.group(2)), withUnit.group(3));
        } else if (trimmed.toUpperCase(Locale.ROOT).matches("-?P.*")) {
            try {
                parsed = Duration.parse(trimmed);
            } catch (DateTimeParseException | ArithmeticException e) {
                throw notADuration(text);
            }
        } else if (INFINITE_WORDS.contains(trimmed.toLowerCase(Locale.ROOT))) {
            throw infinite(text);
        } else {
            throw notADuration(text);
        }
        if (parsed.compareTo(LONGEST) > 0 || parsed.compareTo(LONGEST.negated()) < 0) { // abs() overflows on the least
            throw new IllegalArgumentException(quote(text) + " is too large; the longest allowed is " + format(LONGEST));
        }
        if (parsed.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(quote(text) + " is finer than a millisecond; use whole milliseconds, e.g. \"500ms\"");
        }
        return parsed;
    }

    /** The message for a value that means "no limit", which the configuration never allows. */
    static IllegalArgumentException infinite(String text) {
        return new IllegalArgumentException(quote(text)
                + " is not allowed: fanin needs a finite time so that every window closes; use e.g. \"15m\"");
    }

    private static Duration fromUnit(String text, int sign, long amount, String unit) {
        long limitInUnit = switch (unit) {
            case "ms" -> LONGEST.toMillis();
            case "s" -> LONGEST.toSeconds();
            case "m" -> LONGEST.toMinutes();
            case "h" -> LONGEST.toHours();
            default -> LONGEST.toDays();
        };
        if (amount > limitInUnit) {
            throw new IllegalArgumentException(quote(text) + " is too large; the longest allowed is " + format(LONGEST));
        }
        long signed = sign * amount;
        return switch (unit) {
            case "ms" -> Duration.ofMillis(signed);
            case "s" -> Duration.ofSeconds(signed);
            case "m" -> Duration.ofMinutes(signed);
            case "h" -> Duration.ofHours(signed);
            default -> Duration.ofDays(signed);
        };
    }

    /**
     * Writes a duration in the configuration's syntax with the largest exact unit: {@code 1h}, {@code 90s},
     * {@code 1500ms}. {@code parse(format(d))} equals {@code d} for every whole-millisecond duration.
     */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        if (millis % 86_400_000L == 0) {
            return millis / 86_400_000L + "d";
        }
        if (millis % 3_600_000L == 0) {
            return millis / 3_600_000L + "h";
        }
        if (millis % 60_000L == 0) {
            return millis / 60_000L + "m";
        }
        if (millis % 1_000L == 0) {
            return millis / 1_000L + "s";
        }
        return millis + "ms";
    }

    private static IllegalArgumentException notADuration(String text) {
        return new IllegalArgumentException(quote(text) + " is not a duration; use e.g. \"30s\", \"5m\"");
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }
}
