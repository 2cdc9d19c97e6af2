package dev.fanin.sim;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;

/**
 * The simulation's configuration: the three bundled sample pipelines ({@code fanin/pipelines.yaml}) with the same
 * envelopes, keys, windows, triggers, watermark, lateness and incomplete policies, but with the aggregations the
 * invariant checks need (an exact {@code count} and the {@code distinct-ids} of every counted event, capped far above
 * any simulated window), a configurable open-window bound, and a retention of 2 h equal to the event times' maxPast
 * (shorter than the 7 d default so a long run's store stays small; never shorter than maxPast, or a duplicate
 * arriving after the TTL would re-create a deleted window and fire it again).
 */
public final class SimPipelines {

    /** Name of the count aggregation in every simulated pipeline. */
    public static final String COUNT = "events";
    /** Name of the distinct-ids aggregation in every simulated pipeline. */
    public static final String IDS = "ids";
    /**
     * The distinct-ids cap, far above any simulated window: a revision holding more ids cannot be checked exactly. With
     * {@link #ID_BYTES} it keeps the aggregate within what EventBridge takes, as the loader requires.
     */
    public static final int IDS_CAP = 2_000;
    /** The longest id listed, as JSON: every simulated event id (at most an S3 object key of about 30 characters) fits. */
    public static final int ID_BYTES = 64;

    private SimPipelines() {
    }

    public static FaninConfig load(int maxOpenWindows) {
        return ConfigLoader.load(yaml(maxOpenWindows), "simulation pipelines");
    }

    public static String yaml(int maxOpenWindows) {
        String common = """
                    aggregations:
                      - {name: %s, type: count}
                      - {name: %s, type: distinct-ids, cap: %d, maxValueBytes: %d}
                    bounds: {maxOpenWindows: %d}
                    retention: 2h
                    emit:
                      eventbridge: {bus: sim-bus, source: fanin, detailType: fanin.aggregate}
                """.formatted(COUNT, IDS, IDS_CAP, ID_BYTES, maxOpenWindows);
        return """
                version: 1
                pipelines:
                  - name: alert-storm
                    match:
                      - path: $envelope.source
                        oneOf: [custom.alerts, aws.cloudwatch]
                    envelope: eventbridge
                    key: [$envelope.account, $envelope.region, $.service]
                    eventId: $envelope.id
                    eventTime: {path: $envelope.time, maxPast: 2h}
                    window: {type: session, gap: 30s}
                    triggers: {maxLifetime: 10m}
                    watermark: {outOfOrderness: 10s, idleAfter: 30s}
                    allowedLateness: 2m
                    incomplete: {policy: fire-partial}
                """ + common + """
                  - name: file-uploads
                    match:
                      - path: $.eventSource
                        equals: "aws:s3"
                    envelope: s3
                    key:
                      - $.s3.bucket.name
                      - path: $.s3.object.key
                        extract: '^(.*)/[^/]+$'
                    eventId: $.s3.object.key
                    eventTime: {path: $.eventTime, maxPast: 2h}
                    window: {type: session, gap: 10m}
                    triggers:
                      sentinel:
                        when: {path: $.s3.object.key, matches: '.*/_manifest-\\d+\\.json'}
                        expectedCount: {path: $.s3.object.key, extract: '_manifest-(\\d+)\\.json$'}
                        countsAsEvent: false
                      maxLifetime: 2h
                    incomplete: {policy: hold, atDeadline: fire-flagged}
                """ + common + """
                  - name: shard-completions
                    match:
                      - path: $.type
                        equals: shard.done
                    envelope: raw
                    key: [$.jobId, $.runId]
                    eventId: $.shard
                    eventTime: {path: $.finishedAt, maxPast: 2h}
                    window: {type: tumbling, size: 1d}
                    triggers:
                      expected: {countPath: $.shardCount, memberPath: $.shard, firstMember: 0}
                      maxLifetime: 30m
                    incomplete: {policy: fire-partial}
                """ + common + """
                  - name: sensor-rollup
                    match:
                      - path: $.type
                        equals: reading
                    envelope: raw
                    key: [$.sensor]
                    eventId: $.id
                    eventTime: {path: $.at, maxPast: 2h}
                    window: {type: tumbling, size: 1m}
                    triggers: {maxLifetime: 10m}
                    watermark: {outOfOrderness: 10s, idleAfter: 30s}
                    allowedLateness: 1m
                """ + common;
    }
}
