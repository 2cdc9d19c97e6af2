package dev.fanin.aws.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.support.FreshTable;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A session commit that loses races to other writers of its key's live item (moto, the real adapter): the head is
 * created at the live version it first read and each retry writes it at the head's own next version, while the live
 * item's versions, which number the session's slices, went on. The third attempt wrote the head at a version below
 * the newest live slice (its sn right); a late event's head write then spilled at its own lower version and set sn
 * there, hiding the live slice from every load: 12 of 16 ids read cold, and a redelivered event counted twice (a
 * review). A spill never lowers sn.
 */
class CommitRetrySliceTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: session, gap: 1m}\n    triggers: {maxLifetime: 10m, count: 4}\n"
            + "    watermark: {outOfOrderness: 0s, idleAfter: 5m}\n    allowedLateness: 1h\n"
            + "    aggregations: [{name: n, type: count}, {name: ids, type: distinct-ids}]\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    private static final String X = WindowRef.sessionId(T0.toEpochMilli());

    @RegisterExtension
    static final FreshTable TABLE = new FreshTable("windows");

    private final TestClock clock = new TestClock(T0.plus(Duration.ofHours(1)));
    private final RecordingEmitter emitter = new RecordingEmitter();
    private final InMemoryWatermarkStore watermarks = new InMemoryWatermarkStore();
    private int yMinutes = 5;

    @Test
    void aSpillAfterARetriedCommitHidesNoSealedId() {
        commitAfterTwoLostRaces();

        Set<String> all = ids("o1", "o2", "o3", "o4", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8");
        assertThat(cold().load(ref()).orElseThrow().eventIds()).as("every id of X, read cold, right after its commit").isEqualTo(all);

        // Four late events for the committed X: one head write, whose tail is spilled.
        clock.advance(Duration.ofSeconds(5));
        BatchResult late = new IngestService(engine(container())).handle(List.of(msg("d1", 4), msg("d2", 4), msg("d3", 4), msg("d4", 4)));
        assertThat(late.eventsAccepted()).isEqualTo(4);

        Set<String> afterD = ids("o1", "o2", "o3", "o4", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "d1", "d2", "d3", "d4");
        StoredWindow loaded = cold().load(ref()).orElseThrow();
        // A redelivery of c5 (the message of one of the corrections) to a fresh container.
        BatchResult again = new IngestService(engine(container())).handle(List.of(msg("c5", 2)));
        assertThat(loaded.eventIds()).as("every id of X, read cold").isEqualTo(afterD);
        assertThat(again.eventsAccepted()).as("c5 counted once").isZero();
    }

    /**
     * A spill at a head version below sn, refused its head update, left a slice below sn: a container that had read the
     * window past that number never read it, while a later writer that read it dropped its ids from the head (a
     * second review: d1 counted twice by that container). A head at or below its sn no longer spills.
     */
    @Test
    void aContainerThatReadTheWindowBeforeLateSpillsStillSeesEveryId() {
        commitAfterTwoLostRaces();
        DynamoDbWindowStore warm = container();
        clock.advance(Duration.ofSeconds(5));
        assertThat(warm.load(ref()).orElseThrow().eventIds()).as("read once: its slices cached through sn").hasSize(12);

        // Late events through two other containers: d1..d4, then e1.
        assertThat(new IngestService(engine(container())).handle(List.of(msg("d1", 4), msg("d2", 4), msg("d3", 4), msg("d4", 4)))
                .eventsAccepted()).isEqualTo(4);
        assertThat(new IngestService(engine(container())).handle(List.of(msg("e1", 4))).eventsAccepted()).isEqualTo(1);

        Set<String> all = ids("o1", "o2", "o3", "o4", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "d1", "d2", "d3", "d4", "e1");
        assertThat(cold().load(ref()).orElseThrow().eventIds()).as("read cold").isEqualTo(all);
        assertThat(warm.load(ref()).orElseThrow().eventIds()).as("read by the container that cached it").isEqualTo(all);
        // SQS redelivers d1's message to that container.
        assertThat(new IngestService(engine(warm)).handle(List.of(msg("d1", 4))).eventsAccepted()).as("d1 counted once").isZero();
    }

    /**
     * X: four events, claimed by their count, emitted and committed by one invocation at the third attempt: other
     * invocations write the key meanwhile (live versions V+1 .. V+6, X's tail spilled at V+2 and V+5), so the head,
     * created at V+1, is written at V+3 with sn V+5.
     */
    private void commitAfterTwoLostRaces() {
        IngestService other = new IngestService(engine(container()));
        int[] commitAttempts = {0};
        WindowStore committing = new ForwardingWindowStore(container()) {
            @Override
            public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
                boolean commitOfX = previous.session(X).isPresent() && next.session(X).isEmpty();
                if (commitOfX) {
                    commitAttempts[0]++;
                    if (commitAttempts[0] == 1) {
                        y(other);
                        corrections(other, "c1", "c2", "c3", "c4");
                        y(other);
                        y(other);
                        corrections(other, "c5", "c6", "c7", "c8");
                    } else if (commitAttempts[0] == 2) {
                        y(other);
                    }
                }
                return super.replaceLive(previous, next);
            }
        };
        BatchResult first = new IngestService(engine(committing)).handle(List.of(msg("o1", 0), msg("o2", 1), msg("o3", 2), msg("o4", 3)));
        assertThat(first.eventsAccepted()).isEqualTo(4);
        assertThat(commitAttempts[0]).as("committed at the third attempt").isEqualTo(3);
        assertThat(new DynamoDbWindowStore(TABLE.client(), TABLE.name(), settings()).loadLive("p", "k").session(X)).isEmpty();
    }

    private void corrections(IngestService ingest, String... ids) {
        List<InboundMessage> batch = new ArrayList<>();
        for (String id : ids) {
            batch.add(msg(id, 1));
        }
        assertThat(ingest.handle(batch).eventsAccepted()).isEqualTo(ids.length);
    }

    /** One event of a session of its own, minutes after X: a write of the live item that does not touch X. */
    private void y(IngestService ingest) {
        String body = "{\"k\":\"k\",\"id\":\"y" + yMinutes + "\",\"t\":" + T0.plus(Duration.ofMinutes(yMinutes)).toEpochMilli() + "}";
        yMinutes += 2;
        assertThat(ingest.handle(List.of(new InboundMessage("y" + yMinutes, body, 1, clock.instant(), clock.instant(), Map.of())))
                .eventsAccepted()).isEqualTo(1);
    }

    private InboundMessage msg(String id, int second) {
        String body = "{\"k\":\"k\",\"id\":\"" + id + "\",\"t\":" + T0.plusSeconds(second).toEpochMilli() + "}";
        return new InboundMessage("m-" + id, body, 1, clock.instant(), clock.instant(), Map.of());
    }

    private static Set<String> ids(String... eventIds) {
        Set<String> digests = new java.util.HashSet<>();
        for (String id : eventIds) {
            digests.add(dev.fanin.core.aggregate.EventIdDigest.of(id));
        }
        return digests;
    }

    private static WindowRef ref() {
        return new WindowRef("p", "k", X);
    }

    private static DynamoDbWindowStore.Settings settings() {
        return new DynamoDbWindowStore.Settings(4, 3);
    }

    /** A function container: a store with a slice cache of its own. */
    private static DynamoDbWindowStore container() {
        return new DynamoDbWindowStore(TABLE.client(), TABLE.name(), settings(), WriteCostListener.NONE,
                dev.fanin.aws.RetryPolicy.defaults(), new SliceCache(SliceCache.DEFAULT_BYTES));
    }

    private static DynamoDbWindowStore cold() {
        return container();
    }

    private FaninEngine engine(WindowStore store) {
        RecordingSideOutput side = new RecordingSideOutput();
        return new FaninEngine(ConfigLoader.load(YAML, "test"),
                new FaninPorts(store, watermarks, emitter, new RecordingTimers(), side, side, Metrics.NONE),
                FaninSettings.defaults(), clock);
    }
}
