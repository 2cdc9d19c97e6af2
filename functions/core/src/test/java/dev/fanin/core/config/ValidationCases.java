package dev.fanin.core.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Every distinct validation mistake with the exact one-line message it produces. {@link ConfigValidationTest}
 * checks the loader against these; {@link ConfigurationDocTest} checks that docs/CONFIGURATION.md lists each message.
 */
final class ValidationCases {

    /** @param mistake what the user did wrong, as listed in the docs; @param expected the whole rendered problem */
    record Case(String mistake, String yaml, String expected) {
        @Override
        public String toString() {
            return mistake;
        }
    }

    private ValidationCases() {
    }

    /** A one-pipeline document; {@code body} holds the pipeline's fields at column 0. */
    static String p(String body) {
        List<String> lines = body.lines().collect(Collectors.toList());
        StringBuilder yaml = new StringBuilder("version: 1\npipelines:\n");
        for (int i = 0; i < lines.size(); i++) {
            yaml.append(i == 0 ? "  - " : "    ").append(lines.get(i)).append('\n');
        }
        return yaml.toString();
    }

    /** The smallest valid pipeline's fields, to which a case adds one line. */
    static String valid(String extra) {
        return p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: 15m}\n" + extra);
    }

    static Case c(String mistake, String yaml, String expected) {
        return new Case(mistake, yaml, expected);
    }

    static List<Case> all() {
        return List.of(
                // The file
                c("the file is empty", "", "the configuration is empty; start it with \"version: 1\" and a pipelines list"),
                c("the file is not valid YAML", "version: 1\npipelines: [\n",
                        "the file is not valid YAML at line 2, column 13: while parsing a flow node: expected the node content, but found '<stream end>'"),
                c("a field appears twice in one mapping", "version: 1\nversion: 1\n",
                        "line 2: a field \"version\" appears twice in the same mapping; keep one"),
                c("a value that is not a finite number", "version: 1\npipelines:\n  - {name: p, key: [$.k], triggers: {maxLifetime: .inf}}\n",
                        "the value at line 3, column 55 is .inf, not a finite number; fanin takes finite values only (a duration such as maxLifetime must be finite so that every window closes: use e.g. \"15m\")"),
                c("a number no event can carry", valid("match: [{path: $.ratio, equals: 1.0e+2147483000}]"),
                        "pipeline \"p\": match[0].equals is 1.0E+2147483000, outside what fanin holds (0, or a magnitude from 1e-300 to 1e300), so no event could carry it; give another value, or quote it to compare text"),
                c("several YAML documents", valid("") + "---\nversion: 1\n",
                        "the file holds more than one YAML document (\"---\"); put every pipeline in one document"),
                c("the file is a list", "- version: 1\n", "the configuration must be a mapping with version and pipelines, not a list"),
                c("version missing", "pipelines: []\n".replace("[]", "[{name: p, key: [$.k], triggers: {maxLifetime: 15m}}]"),
                        "version is missing; start the file with \"version: 1\""),
                c("version other than 1", valid("").replace("version: 1", "version: 2"),
                        "version is 2; this fanin reads version 1 only, so write \"version: 1\""),
                c("pipelines missing", "version: 1\n", "pipelines is missing; declare at least one pipeline under pipelines:"),
                c("pipelines empty", "version: 1\npipelines: []\n", "pipelines is empty; declare at least one pipeline"),
                c("unknown top-level field", valid("").replace("version: 1", "version: 1\npipeline: x"),
                        "pipeline is not a known field; did you mean \"pipelines\"?"),

                // Pipeline names and fields
                c("pipeline name missing", p("key: [$.k]\ntriggers: {maxLifetime: 15m}"),
                        "pipelines[0].name is missing; give every pipeline a name, e.g. \"file-uploads\""),
                c("pipeline name ill-formed", p("name: File Uploads\nkey: [$.k]\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"File Uploads\": name \"File Uploads\" is not a valid name; use 1 to 40 lower-case letters, digits and '-', e.g. \"file-uploads\""),
                c("pipeline name not text", p("name: 123\nkey: [$.k]\ntriggers: {maxLifetime: 15m}"),
                        "pipelines[0].name must be text, not a number; quote it: \"123\""),
                c("pipeline name used twice",
                        p("name: p\nmatch: [{path: $.a, exists: true}]\nkey: [$.k]\ntriggers: {maxLifetime: 15m}")
                                + "  - {name: p, key: [$.k], triggers: {maxLifetime: 15m}}\n",
                        "pipeline \"p\": name \"p\" is also the name of pipelines[0]; pipeline names must be unique"),
                c("unknown field, close to a known one", valid("windw: {type: session, gap: 30s}"),
                        "pipeline \"p\": windw is not a known field; did you mean \"window\"?"),
                c("unknown field, nothing close", valid("colour: red"),
                        "pipeline \"p\": colour is not a known field; the fields here are: name, match, envelope, key, eventId, eventTime, window, triggers, watermark, allowedLateness, late, incomplete, aggregations, bounds, emit, retention"),
                c("a mapping where a list belongs", valid("match: {path: $.a, exists: true}"),
                        "pipeline \"p\": match must be a list, e.g. [{path: \"$.source\", equals: \"custom.alerts\"}], not a mapping"),
                c("a list where a mapping belongs", valid("window: [session]"),
                        "pipeline \"p\": window must be a mapping (field: value), not a list"),
                c("a match-everything pipeline before others",
                        valid("") + "  - {name: q, key: [$.k], triggers: {maxLifetime: 15m}}\n",
                        "pipeline \"p\": match has no conditions, so this pipeline takes every message and \"q\" after it would never receive one; add a condition or move this pipeline last"),
                c("envelope unknown", valid("envelope: sns2"),
                        "pipeline \"p\": envelope \"sns2\" is not one of raw, eventbridge, sns, s3; did you mean \"sns\"?"),

                // Key, paths, conditions
                c("key missing", p("name: p\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": key is missing; list the fields whose values form the group key, e.g. [\"$.account\", \"$.region\"]"),
                c("key empty", p("name: p\nkey: []\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": key is empty; list at least one field, e.g. [\"$.account\"]"),
                c("key not a list", p("name: p\nkey: $.k\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": key must be a list, e.g. [\"$.account\", \"$.region\"], not text"),
                c("path without $", p("name: p\nkey: [account]\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": key[0] \"account\" must start with \"$\" (payload) or \"$envelope\"; use e.g. \"$.detail.id\""),
                c("path with a wildcard", valid("eventId: $.items[*].id"),
                        "pipeline \"p\": eventId \"$.items[*].id\" has [*] at character 7; use [0] for an array index or ['name'] for a field"),
                c("path with an empty field name", valid("eventId: $..id"),
                        "pipeline \"p\": eventId \"$..id\" has an empty field name at character 2; field names are letters, digits, '_' and '-', or use ['name']"),
                c("extract regex without a capture group", p("name: p\nkey: [{path: $.key, extract: '^.*/[^/]+$'}]\ntriggers: {maxLifetime: 15m}"),
                        "pipeline \"p\": key[0].extract \"^.*/[^/]+$\" has no capture group; put the part to keep in ( ), e.g. \"^(.*)/[^/]+$\""),
                c("invalid regular expression", valid("match: [{path: $.key, matches: 'a(b'}]"),
                        "pipeline \"p\": match[0].matches \"a(b\" is not a valid regular expression: Unclosed group at index 3"),
                c("condition without a test", valid("match: [{path: $.source}]"),
                        "pipeline \"p\": match[0] needs one of equals, oneOf, matches, exists"),
                c("condition with two tests", valid("match: [{path: $.source, equals: a, matches: b}]"),
                        "pipeline \"p\": match[0] has equals and matches; use exactly one of equals, oneOf, matches, exists"),
                c("condition without a path", valid("match: [{equals: a}]"),
                        "pipeline \"p\": match[0].path is missing; name the field to test, e.g. \"$.source\""),
                c("oneOf empty", valid("match: [{path: $.source, oneOf: []}]"),
                        "pipeline \"p\": match[0].oneOf is empty; list at least one value"),
                c("equals given a list", valid("match: [{path: $.source, equals: [a]}]"),
                        "pipeline \"p\": match[0].equals must be a single value (text, a number or true/false), not a list"),
                c("event time rejected with no path to read", valid("eventTime: {fallback: reject}"),
                        "pipeline \"p\": eventTime.fallback is reject, but a raw envelope has no event time unless eventTime.path is set, so every message would be rejected; set eventTime.path or use fallback: sqs-sent-timestamp"),
                c("event time format unknown", valid("eventTime: {path: $.t, format: iso}"),
                        "pipeline \"p\": eventTime.format \"iso\" is not one of iso-8601, epoch-millis, epoch-seconds, auto"),

                // Durations
                c("duration not a duration", valid("window: {type: session, gap: 5x}"),
                        "pipeline \"p\": window.gap \"5x\" is not a duration; use e.g. \"30s\", \"5m\""),
                c("duration without a unit", valid("window: {type: session, gap: 30}"),
                        "pipeline \"p\": window.gap 30 has no unit; use e.g. \"30s\" or \"30m\""),
                c("duration zero where it must be positive", valid("window: {type: session, gap: 0s}"),
                        "pipeline \"p\": window.gap \"0s\" must be longer than zero"),
                c("duration negative", valid("allowedLateness: -5s"),
                        "pipeline \"p\": allowedLateness \"-5s\" must not be negative"),
                c("duration infinite", p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: never}"),
                        "pipeline \"p\": triggers.maxLifetime \"never\" is not allowed: fanin needs a finite time so that every window closes; use e.g. \"15m\""),
                c("duration too large", valid("retention: 4000d"),
                        "pipeline \"p\": retention \"4000d\" is too large; the longest allowed is 3650d"),
                c("duration finer than a millisecond", valid("late: {correctionDelay: PT0.0001S}"),
                        "pipeline \"p\": late.correctionDelay \"PT0.0001S\" is finer than a millisecond; use whole milliseconds, e.g. \"500ms\""),

                // Windows
                c("window type missing", valid("window: {size: 5m}"),
                        "pipeline \"p\": window.type is missing; use one of tumbling, sliding, session"),
                c("window type unknown", valid("window: {type: tumblng, size: 5m}"),
                        "pipeline \"p\": window.type \"tumblng\" is not one of tumbling, sliding, session; did you mean \"tumbling\"?"),
                c("window size missing", valid("window: {type: tumbling}"),
                        "pipeline \"p\": window.size is missing; a tumbling window needs its length, e.g. \"5m\""),
                c("window size zero", valid("window: {type: tumbling, size: 0s}"),
                        "pipeline \"p\": window.size \"0s\" must be longer than zero"),
                c("tumbling offset not shorter than the size", p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: 2h}\nwindow: {type: tumbling, size: 1h, offset: 60m}"),
                        "pipeline \"p\": window.offset \"1h\" must be shorter than the window size \"1h\""),
                c("sliding slide missing", valid("window: {type: sliding, size: 10m}"),
                        "pipeline \"p\": window.slide is missing; a sliding window needs the time between window starts, e.g. \"1m\""),
                c("sliding slide longer than the size", valid("window: {type: sliding, size: 5m, slide: 10m}"),
                        "pipeline \"p\": window.slide \"10m\" is longer than the window size \"5m\", so events between windows would belong to none; use a slide of at most the size"),
                c("sliding size not a multiple of the slide", valid("window: {type: sliding, size: 5m, slide: 2m}"),
                        "pipeline \"p\": window.slide \"2m\" does not divide the window size \"5m\"; choose a slide that divides it exactly, e.g. \"1m\""),
                c("sliding window with too many windows per event", p("name: p\nkey: [$.k]\ntriggers: {maxLifetime: 2h}\nwindow: {type: sliding, size: 1h, slide: 1s}"),
                        "pipeline \"p\": window.slide \"1s\" would put every event in 3600 windows of size \"1h\"; at most 100 are allowed, so use a longer slide"),
                c("session gap missing", valid("window: {type: session}"),
                        "pipeline \"p\": window.gap is missing; a session window closes after this much quiet, e.g. \"30s\""),
                c("a field of another window type", valid("window: {type: session, gap: 30s, size: 5m}"),
                        "pipeline \"p\": window.size does not apply to a session window, which takes: type, gap"),

                // Triggers
                c("triggers missing", p("name: p\nkey: [$.k]"),
                        "pipeline \"p\": triggers.maxLifetime is missing; a window could stay open forever; set triggers.maxLifetime, e.g. \"15m\""),
                c("maxLifetime missing", p("name: p\nkey: [$.k]\ntriggers: {count: 5}"),
                        "pipeline \"p\": triggers.maxLifetime is missing; a window could stay open forever; set triggers.maxLifetime, e.g. \"15m\""),
                c("maxLifetime not longer than the session gap", p("name: p\nkey: [$.k]\nwindow: {type: session, gap: 30s}\ntriggers: {maxLifetime: 30s}"),
                        "pipeline \"p\": triggers.maxLifetime \"30s\" is not longer than window.gap \"30s\" plus watermark.outOfOrderness \"5s\" and no count, expected or sentinel trigger can close a window sooner, so windows would close by maxLifetime before the watermark passes their end; make it longer than \"35s\" or add a trigger"),
                c("maxLifetime shorter than the window size", p("name: p\nkey: [$.k]\nwindow: {type: tumbling, size: 1h}\ntriggers: {maxLifetime: 30m}"),
                        "pipeline \"p\": triggers.maxLifetime \"30m\" is not longer than window.size \"1h\" plus watermark.outOfOrderness \"5s\" and no count, expected or sentinel trigger can close a window sooner, so windows would close by maxLifetime before the watermark passes their end; make it longer than \"3605s\" or add a trigger"),
                c("count not a number", p("name: p\nkey: [$.k]\ntriggers: {count: \"5\", maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.count must be a whole number, not \"5\""),
                c("count zero", p("name: p\nkey: [$.k]\ntriggers: {count: 0, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.count is 0; it must be between 1 and 10000000"),
                c("count larger than maxEventsPerWindow", p("name: p\nkey: [$.k]\ntriggers: {count: 500, maxLifetime: 15m}\nbounds: {maxEventsPerWindow: 100}"),
                        "pipeline \"p\": triggers.count is 500, more than bounds.maxEventsPerWindow 100, so it could never fire; lower it or raise the bound"),
                c("expected count larger than maxEventsPerWindow", p("name: p\nkey: [$.k]\ntriggers: {expected: {count: 500}, maxLifetime: 15m}\nbounds: {maxEventsPerWindow: 100}"),
                        "pipeline \"p\": triggers.expected.count is 500, more than bounds.maxEventsPerWindow 100, so a window could never be complete; lower it or raise the bound"),
                c("expected with both count and countPath", p("name: p\nkey: [$.k]\ntriggers: {expected: {count: 4, countPath: $.n}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.expected has both count and countPath; use count for a fixed number or countPath to read it from each event"),
                c("expected with neither count nor countPath", p("name: p\nkey: [$.k]\ntriggers: {expected: {memberPath: $.shard}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.expected needs count (a fixed number, e.g. 64) or countPath (a field carrying it, e.g. \"$.shardCount\")"),
                c("firstMember without memberPath", p("name: p\nkey: [$.k]\ntriggers: {expected: {count: 4, firstMember: 1}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.expected.firstMember is set but memberPath is not; firstMember numbers the members that memberPath reads, so set both or neither"),
                c("firstMember too large", p("name: p\nkey: [$.k]\ntriggers: {expected: {count: 4, memberPath: $.m, firstMember: 2147483647}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.expected.firstMember is 2147483647; it must be between 0 and 2147473647"),
                c("sentinel without when", p("name: p\nkey: [$.k]\ntriggers: {sentinel: {countsAsEvent: true}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.sentinel.when is missing; give the condition that identifies the sentinel event, e.g. {path: \"$.s3.object.key\", matches: \".*/_SUCCESS\"}"),
                c("two sources of the expected count", p("name: p\nkey: [$.k]\ntriggers:\n  expected: {countPath: $.n}\n  sentinel: {when: {path: $.last, exists: true}, expectedCount: $.n}\n  maxLifetime: 15m"),
                        "pipeline \"p\": triggers.sentinel.expectedCount and triggers.expected both give the expected count; keep one of them"),
                c("true/false written as text", p("name: p\nkey: [$.k]\ntriggers: {sentinel: {when: {path: $.last, exists: true}, countsAsEvent: \"no\"}, maxLifetime: 15m}"),
                        "pipeline \"p\": triggers.sentinel.countsAsEvent must be true or false, not \"no\""),

                // Watermark, lateness, incomplete windows
                c("idleAfter zero", valid("watermark: {idleAfter: 0s}"),
                        "pipeline \"p\": watermark.idleAfter \"0s\" must be longer than zero"),
                c("outOfOrderness negative", valid("watermark: {outOfOrderness: -1s}"),
                        "pipeline \"p\": watermark.outOfOrderness \"-1s\" must not be negative"),
                c("tooLate unknown", valid("late: {tooLate: dropp}"),
                        "pipeline \"p\": late.tooLate \"dropp\" is not one of side-output, drop; did you mean \"drop\"?"),
                c("hold without a way to know completeness", valid("incomplete: {policy: hold}"),
                        "pipeline \"p\": incomplete.policy is hold, but this pipeline has no way to know a window is complete; add triggers.expected or triggers.sentinel, or use policy: fire-partial"),
                c("fire-and-reconcile without a way to know completeness", valid("incomplete: {policy: fire-and-reconcile}"),
                        "pipeline \"p\": incomplete.policy is fire-and-reconcile, but this pipeline has no way to know a window is complete; add triggers.expected or triggers.sentinel, or use policy: fire-partial"),
                c("atDeadline without hold", valid("incomplete: {policy: fire-partial, atDeadline: dead-letter}"),
                        "pipeline \"p\": incomplete.atDeadline applies only to policy hold, which this pipeline does not use; remove it or set policy: hold"),
                c("retention not longer than allowedLateness", valid("allowedLateness: 2h\nretention: 1h"),
                        "pipeline \"p\": retention \"1h\" is not longer than allowedLateness \"2h\"; a late event could find its window deleted and fire it a second time, so keep windows longer"),

                // Aggregations
                c("aggregation type missing", valid("aggregations: [{name: files}]"),
                        "pipeline \"p\": aggregations[0].type is missing; use one of count, distinct-ids, sum, min, max, first, last, distinct-values"),
                c("aggregation type unknown", valid("aggregations: [{name: keys, type: distinct-value, path: $.k}]"),
                        "pipeline \"p\": aggregations[0].type \"distinct-value\" is not one of count, distinct-ids, sum, min, max, first, last, distinct-values; did you mean \"distinct-values\"?"),
                c("aggregation name missing", valid("aggregations: [{type: count}]"),
                        "pipeline \"p\": aggregations[0].name is missing; name the output field, e.g. \"files\""),
                c("aggregation name ill-formed", valid("aggregations: [{name: file count, type: count}]"),
                        "pipeline \"p\": aggregations[0].name \"file count\" is not a valid name; use up to 64 letters, digits and '_', starting with a letter, e.g. \"fileCount\""),
                c("aggregation names repeated", valid("aggregations: [{name: n, type: count}, {name: n, type: distinct-ids}]"),
                        "pipeline \"p\": aggregations[1].name \"n\" is also the name of aggregations[0]; aggregation names must be unique"),
                c("sum without path", valid("aggregations: [{name: bytes, type: sum}]"),
                        "pipeline \"p\": aggregations[0].path is missing; a sum needs the number field to add up, e.g. \"$.bytes\""),
                c("max without path", valid("aggregations: [{name: slowest, type: max}]"),
                        "pipeline \"p\": aggregations[0].path is missing; a max needs the number field to compare, e.g. \"$.durationMs\""),
                c("distinct-values without path", valid("aggregations: [{name: keys, type: distinct-values}]"),
                        "pipeline \"p\": aggregations[0].path is missing; distinct-values needs the field whose values it collects, e.g. \"$.resource\""),
                c("samples n out of range", valid("aggregations: [{name: samples, type: last, n: 101}]"),
                        "pipeline \"p\": aggregations[0].n is 101; it must be between 1 and 100"),
                c("cap out of range", valid("aggregations: [{name: keys, type: distinct-values, path: $.k, cap: 0}]"),
                        "pipeline \"p\": aggregations[0].cap is 0; it must be between 1 and 10000"),
                c("byte bound out of range", valid("aggregations: [{name: ids, type: distinct-ids, maxValueBytes: 8}]"),
                        "pipeline \"p\": aggregations[0].maxValueBytes is 8; it must be between 16 and 262144"),
                c("aggregate larger than the emit target takes", valid("aggregations: [{name: samples, type: last, n: 100}]"),
                        "pipeline \"p\": aggregations can make an aggregate of up to 1041341 bytes, more than the 262124 bytes an EventBridge"
                                + " entry takes here; the largest is aggregations[0] \"samples\" with up to 1033935 bytes: lower its n or maxValueBytes"),
                c("window state larger than a DynamoDB item takes",
                        valid("aggregations: [{name: v, type: distinct-values, path: $.k, cap: 1000, maxValueBytes: 200}]"),
                        "pipeline \"p\": aggregations can make a window state of up to 412830 bytes (accumulators, member completeness and the"
                                + " frozen aggregate of a claim), more than the 360448 bytes a DynamoDB item leaves for it; the largest is"
                                + " aggregations[0] \"v\" with up to 201129 bytes: lower its cap or maxValueBytes"),
                c("a field the aggregation type does not take", valid("aggregations: [{name: files, type: count, path: $.k}]"),
                        "pipeline \"p\": aggregations[0].path does not apply to a count aggregation, which takes: name, type"),

                // Bounds
                c("bound not positive", valid("bounds: {maxOpenWindows: 0}"),
                        "pipeline \"p\": bounds.maxOpenWindows is 0; it must be at least 1"),
                c("key length bound above the store's limit", valid("bounds: {maxKeyLength: 4096}"),
                        "pipeline \"p\": bounds.maxKeyLength is 4096; it must be between 1 and 1024"),
                c("onOverflow unknown", valid("bounds: {onOverflow: drop}"),
                        "pipeline \"p\": bounds.onOverflow \"drop\" is not one of split, side-output"),

                // Emit
                c("emit without a target", valid("emit: {}"),
                        "pipeline \"p\": emit needs a target: eventbridge (e.g. {bus: \"${FANIN_EMIT_BUS_NAME}\"}) or sqs (e.g. {queueUrl: \"${FANIN_EMIT_QUEUE_URL}\"})"),
                c("emit with two targets", valid("emit: {eventbridge: {bus: b}, sqs: {queueUrl: q}}"),
                        "pipeline \"p\": emit has both eventbridge and sqs; choose one target"),
                c("sqs without queueUrl", valid("emit: {sqs: {fifo: true}}"),
                        "pipeline \"p\": emit.sqs.queueUrl is missing; give the queue URL, e.g. \"${FANIN_EMIT_QUEUE_URL}\""),
                c("FIFO queue URL not ending in .fifo", valid("emit: {sqs: {queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/out', fifo: true}}"),
                        "pipeline \"p\": emit.sqs.queueUrl \"https://sqs.us-east-1.amazonaws.com/123456789012/out\" does not end in \".fifo\", but fifo is true; FIFO queue URLs end in \".fifo\""),
                c("FIFO queue URL with fifo false", valid("emit: {sqs: {queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/out.fifo', fifo: false}}"),
                        "pipeline \"p\": emit.sqs.queueUrl \"https://sqs.us-east-1.amazonaws.com/123456789012/out.fifo\" ends in \".fifo\", but fifo is false; set fifo: true so that messages carry a group id"),
                c("malformed environment reference", valid("emit: {eventbridge: {bus: '${FANIN_BUS'}}"),
                        "pipeline \"p\": emit.eventbridge.bus \"${FANIN_BUS\" has a malformed environment reference; write it as \"${NAME}\" with letters, digits and '_'"),
                c("empty target name", valid("emit: {eventbridge: {source: ''}}"),
                        "pipeline \"p\": emit.eventbridge.source is empty; leave it out for the default or give a value"),
                c("source reserved for AWS", valid("emit: {eventbridge: {source: aws.myteam}}"),
                        "pipeline \"p\": emit.eventbridge.source \"aws.myteam\" starts with \"aws.\", which EventBridge reserves for AWS's own "
                                + "events and refuses in PutEvents; use your own prefix, e.g. \"myteam.fanin\""),
                c("source reserved for AWS before a reference", valid("emit: {eventbridge: {source: 'aws.${STAGE}'}}"),
                        "pipeline \"p\": emit.eventbridge.source \"aws.${STAGE}\" starts with \"aws.\", which EventBridge reserves for AWS's own "
                                + "events and refuses in PutEvents; use your own prefix, e.g. \"myteam.fanin\""),
                c("source too long", valid("emit: {eventbridge: {source: " + "s".repeat(257) + "}}"),
                        "pipeline \"p\": emit.eventbridge.source is 257 characters long; EventBridge takes at most 256"),
                c("detail type too long", valid("emit: {eventbridge: {detailType: " + "d".repeat(129) + "}}"),
                        "pipeline \"p\": emit.eventbridge.detailType is 129 characters long; EventBridge takes at most 128"));
    }
}
