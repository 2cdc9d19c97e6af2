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

    /** The pipeline's triggers, or null after reporting their problems (a missing section is a problem). */
    static TriggerSpec parse(Section pipeline) {
        if (!pipeline.has("triggers")) {
            pipeline.at("triggers").child("maxLifetime").problem("is missing; " + MAX_LIFETIME_HINT);
            return null;
        }
        Section triggers = pipeline.section("triggers");
        if (triggers == null) {
            return null;
        }
        int before = triggers.spot().problems().count();
        triggers.allowOnly(FIELDS);
        Integer count = triggers.integer("count", null, 1, MOST_EVENTS);
        Section expectedSection = triggers.section("expected");
        ExpectedSpec expected = expectedSection == null ? null : expected(expectedSection);
        Section sentinelSection = triggers.section("sentinel");
        SentinelSpec sentinel = sentinelSection == null ? null : sentinel(sentinelSection);
        if (sentinel != null && sentinel.expectedCount() != null && expected != null) {
            triggers.at("sentinel").child("expectedCount").problem(
                    "and triggers.expected both give the expected count; keep one of them");
        }
        Duration maxLifetime = triggers.require("maxLifetime", MAX_LIFETIME_HINT)
                ? triggers.duration("maxLifetime", null, Values.Sign.POSITIVE) : null;
        if (triggers.spot().problems().count() != before) {
            return null;
        }
        return new TriggerSpec(count, expected, sentinel, maxLifetime);
    }

    private static ExpectedSpec expected(Section expected) {
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
        Integer firstMember = expected.integer("firstMember", ConfigDefaults.FIRST_MEMBER, 0, Integer.MAX_VALUE);
        if (expected.has("firstMember") && !expected.has("memberPath")) {
            expected.at("firstMember").problem("is set but memberPath is not; firstMember numbers the members that memberPath reads, so set both or neither");
        }
        if (expected.spot().problems().count() != before) {
            return null;
        }
        return new ExpectedSpec(count, countPath, memberPath, firstMember);
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
