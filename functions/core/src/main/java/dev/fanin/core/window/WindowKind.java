package dev.fanin.core.window;

import dev.fanin.core.config.WindowSpec;
import java.util.Locale;

/** The three window types, as a plain enum for switches and for the emitted {@code window.type}. */
public enum WindowKind {
    TUMBLING,
    SLIDING,
    SESSION;

    public static WindowKind of(WindowSpec spec) {
        if (spec instanceof WindowSpec.Tumbling) {
            return TUMBLING;
        }
        if (spec instanceof WindowSpec.Sliding) {
            return SLIDING;
        }
        if (spec instanceof WindowSpec.Session) {
            return SESSION;
        }
        throw new IllegalArgumentException("unknown window spec " + spec);
    }

    /** The name used in the aggregate event: {@code tumbling}, {@code sliding}, {@code session}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the window closes on the session gap (SESSION_GAP) rather than its fixed end (WATERMARK). */
    public boolean isSession() {
        return this == SESSION;
    }
}
