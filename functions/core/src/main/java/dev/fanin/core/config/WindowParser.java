package dev.fanin.core.config;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads {@code window}: {@code type} and the fields that type takes. */
final class WindowParser {

    enum Type { TUMBLING, SLIDING, SESSION }

    private static final List<String> TUMBLING_FIELDS = List.of("type", "size", "offset");
    private static final List<String> SLIDING_FIELDS = List.of("type", "size", "slide");
    private static final List<String> SESSION_FIELDS = List.of("type", "gap");

    private WindowParser() {
    }

    /**
     * The window as read. {@code spec} is null after its problems were reported; {@code length}, the field the
     * lifetime rule reads (the session gap or the window size, named by {@code lengthField}), is null only when
     * that field itself is missing or broken, so a broken offset or slide does not hide the rule.
     */
    record Read(WindowSpec spec, Duration length, String lengthField) {

        static Read of(WindowSpec spec) {
            if (spec instanceof WindowSpec.Session session) {
                return new Read(spec, session.gap(), "window.gap");
            }
            return new Read(spec, spec instanceof WindowSpec.Tumbling tumbling ? tumbling.size() : ((WindowSpec.Sliding) spec).size(), "window.size");
        }
    }

    static Read parse(Section window) {
        int before = window.spot().problems().count();
        if (!window.require("type", "use one of tumbling, sliding, session")) {
            window.allowOnly(allFields());
            return new Read(null, null, null);
        }
        Type type = window.choice("type", Type.class, null);
        if (type == null) {
            window.allowOnly(allFields());
            return new Read(null, null, null);
        }
        Read read = switch (type) {
            case TUMBLING -> tumbling(window);
            case SLIDING -> sliding(window);
            case SESSION -> session(window);
        };
        return window.spot().problems().count() == before ? read : new Read(null, read.length(), read.lengthField());
    }

    private static Read tumbling(Section window) {
        checkFields(window, "tumbling", TUMBLING_FIELDS);
        Duration size = window.require("size", "a tumbling window needs its length, e.g. \"5m\"")
                ? window.duration("size", null, Values.Sign.POSITIVE) : null;
        Duration offset = window.duration("offset", Duration.ZERO, Values.Sign.NOT_NEGATIVE);
        if (size != null && offset != null && offset.compareTo(size) >= 0) {
            window.at("offset").problem("\"" + Durations.format(offset) + "\" must be shorter than the window size \""
                    + Durations.format(size) + "\"");
        }
        return new Read(size == null || offset == null ? null : new WindowSpec.Tumbling(size, offset), size, "window.size");
    }

    private static Read sliding(Section window) {
        checkFields(window, "sliding", SLIDING_FIELDS);
        Duration size = window.require("size", "a sliding window needs its length, e.g. \"10m\"")
                ? window.duration("size", null, Values.Sign.POSITIVE) : null;
        Duration slide = window.require("slide", "a sliding window needs the time between window starts, e.g. \"1m\"")
                ? window.duration("slide", null, Values.Sign.POSITIVE) : null;
        if (size == null || slide == null) {
            return new Read(null, size, "window.size");
        }
        long sizeMillis = size.toMillis();
        long slideMillis = slide.toMillis();
        if (slideMillis > sizeMillis) {
            window.at("slide").problem("\"" + Durations.format(slide) + "\" is longer than the window size \""
                    + Durations.format(size) + "\", so events between windows would belong to none; use a slide of at most the size");
            return new Read(null, size, "window.size");
        }
        if (sizeMillis % slideMillis != 0) {
            window.at("slide").problem("\"" + Durations.format(slide) + "\" does not divide the window size \""
                    + Durations.format(size) + "\"; choose a slide that divides it exactly, e.g. \""
                    + Durations.format(Duration.ofMillis(gcd(sizeMillis, slideMillis))) + "\"");
            return new Read(null, size, "window.size");
        }
        long windowsPerEvent = sizeMillis / slideMillis;
        if (windowsPerEvent > ConfigDefaults.MOST_SLIDING_WINDOWS_PER_EVENT) {
            window.at("slide").problem("\"" + Durations.format(slide) + "\" would put every event in " + windowsPerEvent
                    + " windows of size \"" + Durations.format(size) + "\"; at most "
                    + ConfigDefaults.MOST_SLIDING_WINDOWS_PER_EVENT + " are allowed, so use a longer slide");
            return new Read(null, size, "window.size");
        }
        return Read.of(new WindowSpec.Sliding(size, slide));
    }

    private static Read session(Section window) {
        checkFields(window, "session", SESSION_FIELDS);
        Duration gap = window.require("gap", "a session window closes after this much quiet, e.g. \"30s\"")
                ? window.duration("gap", null, Values.Sign.POSITIVE) : null;
        return new Read(gap == null ? null : new WindowSpec.Session(gap), gap, "window.gap");
    }

    /** A field of another window type gets its own message: it is a known word in the wrong place. */
    private static void checkFields(Section window, String typeName, List<String> fields) {
        Set<String> all = allFields();
        for (String name : window.names()) {
            if (fields.contains(name)) {
                continue;
            }
            String message = all.contains(name)
                    ? "does not apply to a " + typeName + " window, which takes: " + String.join(", ", fields)
                    : Section.unknownField(name, fields);
            window.at(name).problem(message);
        }
    }

    private static Set<String> allFields() {
        Set<String> all = new LinkedHashSet<>(TUMBLING_FIELDS);
        all.addAll(SLIDING_FIELDS);
        all.addAll(SESSION_FIELDS);
        return all;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
