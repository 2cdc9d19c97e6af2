package dev.fanin.cli.init;

import dev.fanin.core.config.Durations;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.FieldPath;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/** The answer formats of {@code fanin init}; each says what is wrong with a bad answer. */
final class Parsers {

    /** Windows and delays longer than a year make no sense for fan-in, and keep every derived duration in range. */
    static final Duration LONGEST_ANSWER = Duration.ofDays(365);

    private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,40}");

    private Parsers() {
    }

    static String name(String text) {
        if (!NAME.matcher(text).matches()) {
            throw new IllegalArgumentException("use 1 to 40 lower-case letters, digits and '-', e.g. \"file-uploads\"");
        }
        return text;
    }

    static String prose(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("say it in a few words");
        }
        return text.strip();
    }

    static <E extends Enum<E>> E choice(Class<E> type, String text) {
        String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(wanted)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("answer one of " + Arrays.stream(type.getEnumConstants())
                .map(PipelineYaml::yamlName).collect(Collectors.joining(", ")));
    }

    static Envelope envelope(String text) {
        return choice(Envelope.class, text);
    }

    /** A path, or null for "none" (blank). */
    static String optionalPath(String text) {
        if (text.isBlank() || text.strip().equalsIgnoreCase("none")) {
            return null;
        }
        return path(text);
    }

    static String path(String text) {
        FieldPath.parse(text.strip());
        return text.strip();
    }

    static boolean harmful(String text) {
        String answer = text.strip().toLowerCase(Locale.ROOT);
        if (answer.equals("harmful")) {
            return true;
        }
        if (answer.equals("suboptimal")) {
            return false;
        }
        throw new IllegalArgumentException("answer harmful or suboptimal");
    }

    static double rate(String text) {
        double rate;
        try {
            rate = Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("give events per second as a number, e.g. 50 or 0.5");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("give a rate above 0 events per second");
        }
        return rate;
    }

    static Duration positiveDuration(String text) {
        Duration duration = durationOrZero(text);
        if (duration.isZero()) {
            throw new IllegalArgumentException("must be longer than zero");
        }
        return duration;
    }

    static Duration durationOrZero(String text) {
        Duration duration = Durations.parse(text.strip());
        if (duration.isNegative()) {
            throw new IllegalArgumentException("must not be negative");
        }
        if (duration.compareTo(LONGEST_ANSWER) > 0) {
            throw new IllegalArgumentException("is longer than " + Durations.format(LONGEST_ANSWER) + "; fan-in windows are shorter");
        }
        return duration;
    }

    /** A deadline, or null for none. */
    static Duration optionalDuration(String text) {
        if (text.isBlank() || text.strip().equalsIgnoreCase("none")) {
            return null;
        }
        return positiveDuration(text);
    }

    static int count(String text) {
        try {
            int count = Integer.parseInt(text.strip());
            if (count >= 1 && count <= PipelineDesign.MOST_EVENTS) {
                return count;
            }
        } catch (NumberFormatException e) {
            // explained below
        }
        throw new IllegalArgumentException("give a whole number from 1 to " + PipelineDesign.MOST_EVENTS);
    }

    static String regex(String text) {
        try {
            Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("is not a valid regular expression: " + e.getDescription());
        }
        return text;
    }

    /** A slide for windows of {@code size}: at most the size, dividing it, at most 100 windows per event. */
    static Duration slide(String text, Duration size, int mostWindowsPerEvent) {
        Duration slide = positiveDuration(text);
        if (slide.compareTo(size) > 0) {
            throw new IllegalArgumentException("is longer than the window size " + Durations.format(size) + "; use at most the size");
        }
        if (size.toMillis() % slide.toMillis() != 0) {
            throw new IllegalArgumentException("does not divide the window size " + Durations.format(size) + " exactly");
        }
        if (size.toMillis() / slide.toMillis() > mostWindowsPerEvent) {
            throw new IllegalArgumentException("would put every event in " + size.toMillis() / slide.toMillis()
                    + " windows; at most " + mostWindowsPerEvent + " are allowed, so use a longer slide");
        }
        return slide;
    }
}
