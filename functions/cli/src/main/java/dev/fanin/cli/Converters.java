package dev.fanin.cli;

import dev.fanin.core.config.Durations;
import java.time.Duration;
import picocli.CommandLine.TypeConversionException;

/** Flag values picocli does not convert by itself, written as the configuration writes them. */
final class Converters {

    private Converters() {
    }

    /** {@code 10s}, {@code 90s}, {@code 3m}, {@code 1h30m}: the configuration's duration syntax. */
    static Duration duration(String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("\"" + text + "\" is not a duration such as 10s, 90s or 3m");
        }
    }
}
