package dev.fanin.core.config;

import java.time.Duration;
import java.util.List;

/** Reads the small policy sections: {@code watermark}, {@code late}, {@code incomplete} and {@code bounds}. */
final class PolicyParser {

    private PolicyParser() {
    }

    static WatermarkSpec watermark(Section pipeline) {
        if (!pipeline.has("watermark")) {
            return new WatermarkSpec(ConfigDefaults.OUT_OF_ORDERNESS, ConfigDefaults.IDLE_AFTER);
        }
        Section section = pipeline.section("watermark");
        if (section == null) {
            return null;
        }
        section.allowOnly(List.of("outOfOrderness", "idleAfter"));
        Duration outOfOrderness = section.duration("outOfOrderness", ConfigDefaults.OUT_OF_ORDERNESS, Values.Sign.NOT_NEGATIVE);
        Duration idleAfter = section.duration("idleAfter", ConfigDefaults.IDLE_AFTER, Values.Sign.POSITIVE);
        return outOfOrderness == null || idleAfter == null ? null : new WatermarkSpec(outOfOrderness, idleAfter);
    }

    static LatePolicy late(Section pipeline) {
        if (!pipeline.has("late")) {
            return new LatePolicy(ConfigDefaults.TOO_LATE, ConfigDefaults.CORRECTION_DELAY);
        }
        Section section = pipeline.section("late");
        if (section == null) {
            return null;
        }
        section.allowOnly(List.of("tooLate", "correctionDelay"));
        LatePolicy.TooLate tooLate = section.choice("tooLate", LatePolicy.TooLate.class, ConfigDefaults.TOO_LATE);
        Duration correctionDelay = section.duration("correctionDelay", ConfigDefaults.CORRECTION_DELAY, Values.Sign.NOT_NEGATIVE);
        return tooLate == null || correctionDelay == null ? null : new LatePolicy(tooLate, correctionDelay);
    }

    /** The policy as read: {@code spec} null after a report, {@code mode} null only when the policy itself is broken. */
    record IncompleteRead(IncompletePolicy spec, IncompletePolicy.Mode mode) {
    }

    static IncompleteRead incomplete(Section pipeline) {
        if (!pipeline.has("incomplete")) {
            return new IncompleteRead(new IncompletePolicy(ConfigDefaults.INCOMPLETE, ConfigDefaults.AT_DEADLINE), ConfigDefaults.INCOMPLETE);
        }
        Section section = pipeline.section("incomplete");
        if (section == null) {
            return new IncompleteRead(null, null);
        }
        section.allowOnly(List.of("policy", "atDeadline"));
        int before = section.spot().problems().count();
        IncompletePolicy.Mode mode = section.choice("policy", IncompletePolicy.Mode.class, ConfigDefaults.INCOMPLETE);
        IncompletePolicy.AtDeadline atDeadline = section.choice("atDeadline", IncompletePolicy.AtDeadline.class, ConfigDefaults.AT_DEADLINE);
        if (mode != null && mode != IncompletePolicy.Mode.HOLD && section.has("atDeadline")) {
            section.at("atDeadline").problem("applies only to policy hold, which this pipeline does not use; remove it or set policy: hold");
        }
        boolean clean = section.spot().problems().count() == before && mode != null && atDeadline != null;
        return new IncompleteRead(clean ? new IncompletePolicy(mode, atDeadline) : null, mode);
    }

    /** The bounds as read: {@code spec} null after a report; the two the rules read apart, null only when broken. */
    record BoundsRead(Bounds spec, Integer maxEventsPerWindow, Integer maxKeyLength) {
    }

    static BoundsRead bounds(Section pipeline) {
        if (!pipeline.has("bounds")) {
            return new BoundsRead(new Bounds(ConfigDefaults.MAX_EVENTS_PER_WINDOW, ConfigDefaults.MAX_OPEN_WINDOWS,
                    ConfigDefaults.MAX_KEY_LENGTH, ConfigDefaults.MAX_PAYLOAD_BYTES, ConfigDefaults.ON_OVERFLOW),
                    ConfigDefaults.MAX_EVENTS_PER_WINDOW, ConfigDefaults.MAX_KEY_LENGTH);
        }
        Section section = pipeline.section("bounds");
        if (section == null) {
            return new BoundsRead(null, null, null);
        }
        int before = section.spot().problems().count();
        section.allowOnly(List.of("maxEventsPerWindow", "maxOpenWindows", "maxKeyLength", "maxPayloadBytes", "onOverflow"));
        Integer maxEvents = section.integer("maxEventsPerWindow", ConfigDefaults.MAX_EVENTS_PER_WINDOW, 1, Integer.MAX_VALUE);
        Integer maxOpen = section.integer("maxOpenWindows", ConfigDefaults.MAX_OPEN_WINDOWS, 1, Integer.MAX_VALUE);
        Integer maxKey = section.integer("maxKeyLength", ConfigDefaults.MAX_KEY_LENGTH, 1, ConfigDefaults.LONGEST_KEY_LENGTH);
        Integer maxPayload = section.integer("maxPayloadBytes", ConfigDefaults.MAX_PAYLOAD_BYTES, 1, ConfigDefaults.LARGEST_PAYLOAD_BYTES);
        Bounds.Overflow overflow = section.choice("onOverflow", Bounds.Overflow.class, ConfigDefaults.ON_OVERFLOW);
        Bounds spec = section.spot().problems().count() == before ? new Bounds(maxEvents, maxOpen, maxKey, maxPayload, overflow) : null;
        return new BoundsRead(spec, maxEvents, maxKey);
    }
}
