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

    static IncompletePolicy incomplete(Section pipeline) {
        if (!pipeline.has("incomplete")) {
            return new IncompletePolicy(ConfigDefaults.INCOMPLETE, ConfigDefaults.AT_DEADLINE);
        }
        Section section = pipeline.section("incomplete");
        if (section == null) {
            return null;
        }
        section.allowOnly(List.of("policy", "atDeadline"));
        IncompletePolicy.Mode mode = section.choice("policy", IncompletePolicy.Mode.class, ConfigDefaults.INCOMPLETE);
        IncompletePolicy.AtDeadline atDeadline = section.choice("atDeadline", IncompletePolicy.AtDeadline.class, ConfigDefaults.AT_DEADLINE);
        if (mode != null && mode != IncompletePolicy.Mode.HOLD && section.has("atDeadline")) {
            section.at("atDeadline").problem("applies only to policy hold, which this pipeline does not use; remove it or set policy: hold");
            return null;
        }
        return mode == null || atDeadline == null ? null : new IncompletePolicy(mode, atDeadline);
    }

    static Bounds bounds(Section pipeline) {
        if (!pipeline.has("bounds")) {
            return new Bounds(ConfigDefaults.MAX_EVENTS_PER_WINDOW, ConfigDefaults.MAX_OPEN_WINDOWS,
                    ConfigDefaults.MAX_KEY_LENGTH, ConfigDefaults.MAX_PAYLOAD_BYTES, ConfigDefaults.ON_OVERFLOW);
        }
        Section section = pipeline.section("bounds");
        if (section == null) {
            return null;
        }
        section.allowOnly(List.of("maxEventsPerWindow", "maxOpenWindows", "maxKeyLength", "maxPayloadBytes", "onOverflow"));
        Integer maxEvents = section.integer("maxEventsPerWindow", ConfigDefaults.MAX_EVENTS_PER_WINDOW, 1, Integer.MAX_VALUE);
        Integer maxOpen = section.integer("maxOpenWindows", ConfigDefaults.MAX_OPEN_WINDOWS, 1, Integer.MAX_VALUE);
        Integer maxKey = section.integer("maxKeyLength", ConfigDefaults.MAX_KEY_LENGTH, 1, ConfigDefaults.LONGEST_KEY_LENGTH);
        Integer maxPayload = section.integer("maxPayloadBytes", ConfigDefaults.MAX_PAYLOAD_BYTES, 1, ConfigDefaults.LARGEST_PAYLOAD_BYTES);
        Bounds.Overflow overflow = section.choice("onOverflow", Bounds.Overflow.class, ConfigDefaults.ON_OVERFLOW);
        if (maxEvents == null || maxOpen == null || maxKey == null || maxPayload == null || overflow == null) {
            return null;
        }
        return new Bounds(maxEvents, maxOpen, maxKey, maxPayload, overflow);
    }
}
