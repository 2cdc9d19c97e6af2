package dev.fanin.core.config;

import java.time.Duration;
import java.util.List;

/** Reads {@code triggers}: count, expected, sentinel and the required hard {@code maxLifetime}. */
final class TriggerParser {

    static final String MAX_LIFETIME_HINT = "a window could stay open forever; set triggers.maxLifetime, e.g. \"15m\"";

    private static final List<String> FIELDS = List.of("count", "expected", "sentinel", "maxLifetime");
    private static final List<String> EXPECTED_FIELDS = List.of("count", "countPath", "memberPath", "firstMember");
    private static final List<String> SENTINEL_FIELDS = List.of("when", "expectedCount", "countsAsEvent");
    private static final int MOST_EVENTS = 10_000_000;

    private TriggerParser() {
    }

    /**
     * The triggers as read. {@code spec} is null after their problems were reported (a missing section is one); the
     * fields the rules across sections read are given apart, each null only when it is itself missing or broken,
     * so that one broken field skips only the rules that read it.
     *
     * @param closesEarly       a count, expected or sentinel trigger is written: broken or not, it has been reported
     *                          if broken, and once fixed it closes windows before their end
     * @param knowsCompleteness an expected or sentinel trigger is written (broken or not)
     * @param tracksMembers     {@code expected.memberPath} is written (broken or not)
     * @param firstMember       {@code expected.firstMember}, its default when absent
     */
    record Read(TriggerSpec spec, Integer count, Integer expectedCount, Duration maxLifetime, boolean closesEarly,
                boolean knowsCompleteness, boolean tracksMembers, Integer firstMember) {
    }

    /** @return null when {@code triggers} is there but not a mapping: nothing in it can be read */
    static Read parse(Section pipeline) {
        if (!pipeline.has("triggers")) {
            pipeline.at("triggers").child("maxLifetime").problem("is missing; " + MAX_LIFETIME_HINT);
            return new Read(null, null, null, null, false, false, false, ConfigDefaults.FIRST_MEMBER);
        }
        Section triggers = pipeline.section("triggers");
        if (triggers == null) {
            return null;
        }
        int before = triggers.spot().problems().count();
        triggers.allowOnly(FIELDS);
        Integer count = triggers.integer("count", null, 1, MOST_EVENTS);
        Section expectedSection = triggers.section("expected");
        Expected expected = expectedSection == null ? new Expected(null, null, ConfigDefaults.FIRST_MEMBER) : expected(expectedSection);
        Section sentinelSection = triggers.section("sentinel");
        SentinelSpec sentinel = sentinelSection == null ? null : sentinel(sentinelSection);
        if (sentinelSection != null && sentinelSection.has("expectedCount") && triggers.has("expected")) {
            triggers.at("sentinel").child("expectedCount").problem(
                    "and triggers.expected both give the expected count; keep one of them");
        }
        Duration maxLifetime = triggers.require("maxLifetime", MAX_LIFETIME_HINT)
                ? triggers.duration("maxLifetime", null, Values.Sign.POSITIVE) : null;
        TriggerSpec spec = triggers.spot().problems().count() == before
                ? new TriggerSpec(count, expected.spec(), sentinel, maxLifetime) : null;
        boolean knowsCompleteness = triggers.has("expected") || triggers.has("sentinel");
        return new Read(spec, count, expected.count(), maxLifetime, knowsCompleteness || triggers.has("count"), knowsCompleteness,
                expectedSection != null && expectedSection.has("memberPath"), expected.firstMember());
    }

    /** {@code triggers.expected} as read: the spec, or null after a report; its count and firstMember apart. */
    private record Expected(ExpectedSpec spec, Integer count, Integer firstMember) {
    }

    private static Expected expected(Section expected) {
        int before = expected.spot().problems().count();
        expected.allowOnly(EXPECTED_FIELDS);
        boolean hasCount = expected.has("count");
        boolean hasCountPath = expected.has("countPath");
        if (hasCount && hasCountPath) {
            expected.spot().problem("has both count and countPath; use count for a fixed number or countPath to read it from each event");
        } else if (!hasCount && !hasCountPath) {
            expected.spot().problem("needs count (a fixed number, e.g. 64) or countPath (a field carrying it, e.g. \"$.shardCount\")");
        }
        Integer count = expected.integer("count", null, 1, MOST_EVENTS);
        FieldPath countPath = expected.path("countPath", null);
        FieldPath memberPath = expected.path("memberPath", null);
        Integer firstMember = expected.integer("firstMember", ConfigDefaults.FIRST_MEMBER, 0, ConfigDefaults.LAST_FIRST_MEMBER);
        if (expected.has("firstMember") && !expected.has("memberPath")) {
            expected.at("firstMember").problem("is set but memberPath is not; firstMember numbers the members that memberPath reads, so set both or neither");
        }
        ExpectedSpec spec = expected.spot().problems().count() == before ? new ExpectedSpec(count, countPath, memberPath, firstMember) : null;
        return new Expected(spec, count, firstMember);
    }

    private static SentinelSpec sentinel(Section sentinel) {
        int before = sentinel.spot().problems().count();
        sentinel.allowOnly(SENTINEL_FIELDS);
        Condition when = sentinel.require("when", "give the condition that identifies the sentinel event, e.g. {path: \"$.s3.object.key\", matches: \".*/_SUCCESS\"}")
                ? ConditionParser.condition(sentinel.at("when"), sentinel.get("when")) : null;
        ValueRef expectedCount = sentinel.has("expectedCount")
                ? ConditionParser.valueRef(sentinel.at("expectedCount"), sentinel.get("expectedCount")) : null;
        Boolean countsAsEvent = sentinel.bool("countsAsEvent", ConfigDefaults.SENTINEL_COUNTS_AS_EVENT);
        if (sentinel.spot().problems().count() != before) {
            return null;
        }
        return new SentinelSpec(when, expectedCount, countsAsEvent);
    }
}
