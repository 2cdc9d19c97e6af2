package dev.fanin.cli.explain;

import dev.fanin.core.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Durations for prose: a configured value as written in YAML, a derived one (a sum) in mixed units. */
public final class Human {

    private Human() {
    }

    /** As the configuration writes it, in a code span: {@code `2m`}. */
    static String config(Duration duration) {
        return "`" + Durations.format(duration) + "`";
    }

    /** As the configuration writes it, without markup: {@code 2m}. */
    static String plain(Duration duration) {
        return Durations.format(duration);
    }

    /** A derived duration in mixed units, e.g. {@code 7d 12m 10s}; {@code 0s} for zero. */
    public static String derived(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        List<String> parts = new ArrayList<>();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; i < sizes.length; i++) {
            long amount = millis / sizes[i];
            if (amount > 0) {
                parts.add(amount + units[i]);
                millis -= amount * sizes[i];
            }
        }
        return String.join(" ", parts);
    }

    static Duration sum(Duration... durations) {
        Duration total = Duration.ZERO;
        for (Duration duration : durations) {
            total = total.plus(duration);
        }
        return total;
    }

    /** Whole seconds, rounded up: what a CloudWatch threshold in seconds must be at least. */
    static long seconds(Duration duration) {
        return (duration.toMillis() + 999) / 1000;
    }
}
