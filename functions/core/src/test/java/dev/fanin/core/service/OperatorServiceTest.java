package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator's close goes through the same claim, emit and commit as any close: one aggregate, reason OPERATOR,
 * {@code complete} as the window stands with its missing members, the note in the aggregate; a second request, or a
 * sweep or timer after it, closes nothing again; a window another close claimed first is reported, not closed.
 */
class OperatorServiceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    /** Four shards expected per job; incomplete windows are held until their 10-minute deadline. */
    private static final String HOLD = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: tumbling, size: 60s}\n"
            + "    triggers:\n      expected: {countPath: $.n, memberPath: $.id, firstMember: 0}\n      maxLifetime: 10m\n"
            + "    incomplete: {policy: hold, atDeadline: fire-flagged}\n"
            + "    watermark: {outOfOrderness: 0s, idleAfter: 5m}\n    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final FaninEngine engine = InMemoryEngines.of(HOLD, store, emitter, new RecordingTimers(), clock);

    private WindowState heldWithShards(int... shards) {
        List<InboundMessage> messages = new ArrayList<>();
        for (int shard : shards) {
            messages.add(InMemoryEngines.message("m" + shard, "{\"k\":\"job-1\",\"id\":" + shard + ",\"n\":4,\"t\":"
                    + T0.toEpochMilli() + "}", T0, 1));
        }
        new IngestService(engine).handle(messages);
        clock.set(T0.plus(java.time.Duration.ofMinutes(6)));  // idle past 5 minutes: the watermark passes the window end
        new SweepService(engine).sweep(clock.instant().plusSeconds(30));
        WindowState held = engine.decode(store.all().get(0));
        assertThat(held.status()).isEqualTo(WindowStatus.HELD);
        return held;
    }

    @Test
    void aHeldWindowIsClosedOnceWithReasonOperatorItsMissingMembersAndTheNote() throws Exception {
        WindowState held = heldWithShards(0, 2);
        OperatorService operator = new OperatorService(engine);

        OperatorService.Result result = operator.close(held.ref(), "shard 1 and 3 are lost with host x; INC-42");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.CLOSED);
        assertThat(result.emitError()).isNull();
        assertThat(emitter.emitted()).singleElement().satisfies(request -> {
            assertThat(request.aggregateId()).isEqualTo(result.aggregate().aggregateId()).isEqualTo(held.ref().aggregateId(0));
            JsonNode detail = JSON.readTree(request.detailJson());
            assertThat(detail.path("closeReason").asText()).isEqualTo("OPERATOR");
            assertThat(detail.path("complete").asBoolean()).isFalse();
            assertThat(detail.path("missing").toString()).isEqualTo("[1,3]");
            assertThat(detail.path("operatorNote").asText()).isEqualTo("shard 1 and 3 are lost with host x; INC-42");
        });
        WindowState closed = engine.decode(store.all().get(0));
        assertThat(closed.status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(closed.committedRevision()).isZero();

        assertThat(operator.close(held.ref(), "again").outcome()).isEqualTo(OperatorService.Outcome.NOT_OPEN);
        clock.set(T0.plus(java.time.Duration.ofMinutes(11)));
        new SweepService(engine).sweep(clock.instant().plusSeconds(30));
        assertThat(emitter.emitted()).as("neither the second request nor the deadline sweep closes it again").hasSize(1);
    }

    @Test
    void aCloseWhoseEmissionFailsSaysWhyAndLeavesTheWindowClaimed() {
        WindowState held = heldWithShards(0, 2);
        FaninEngine noTarget = InMemoryEngines.of(HOLD, store, requests -> requests.stream()
                .map(r -> new AggregateEmitter.Result(r.aggregateId(), false, "NoTarget: pipeline 'p' has no emit target here")).toList(),
                new RecordingTimers(), clock);

        OperatorService.Result result = new OperatorService(noTarget).close(held.ref(), "the target is gone");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.EMIT_FAILED);
        assertThat(result.emitError()).isEqualTo("NoTarget: pipeline 'p' has no emit target here");
        assertThat(result.aggregate().aggregateId()).isEqualTo(held.ref().aggregateId(0));
        assertThat(result.state().status()).isEqualTo(WindowStatus.CLAIMED);
        assertThat(engine.decode(store.all().get(0)).status()).isEqualTo(WindowStatus.CLAIMED);
    }

    @Test
    void aWindowTheDeadlineClaimedFirstIsReportedAsItStands() {
        WindowState held = heldWithShards(0);
        clock.set(T0.plus(java.time.Duration.ofMinutes(11)));
        new SweepService(engine).sweep(clock.instant().plusSeconds(30));

        OperatorService.Result result = new OperatorService(engine).close(held.ref(), "too late");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.NOT_OPEN);
        assertThat(result.state().claim() == null ? result.state().status() : result.state().claim().reason())
                .isIn(WindowStatus.CLOSED, CloseReason.HARD_LIFETIME);
        assertThat(emitter.emitted()).singleElement().satisfies(r -> assertThat(r.detailJson()).contains("\"HARD_LIFETIME\""));
    }

    @Test
    void anOpenWindowWithoutCompletenessRulesIsIncompleteWhenCutShort() throws Exception {
        FaninEngine plain = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 30s}"), store, emitter,
                new RecordingTimers(), clock);
        new IngestService(plain).handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("k1", "e1", T0), T0, 1)));
        WindowState open = plain.decode(store.all().get(0));

        OperatorService.Result result = new OperatorService(plain).close(open.ref(), "closing before the gap");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.CLOSED);
        JsonNode detail = JSON.readTree(emitter.emitted().get(0).detailJson());
        assertThat(detail.path("complete").asBoolean()).isFalse();
        assertThat(detail.path("seen").asLong()).isEqualTo(1);
        assertThat(store.isLive(open.ref())).as("the accepting session was claimed in its key's live item, and its commit moved it out").isFalse();
        assertThat(store.load(open.ref()).map(plain::decode).map(WindowState::status)).contains(WindowStatus.CLOSED);
        assertThat(store.loadLive("p", "k1").closedBefore()).isEqualTo(open.bounds().endMillis());
        assertThat(new OperatorService(plain).close(new dev.fanin.core.window.WindowRef("p", "nobody", "S1"), "x").outcome())
                .isEqualTo(OperatorService.Outcome.NOT_FOUND);
    }

    @Test
    void theEmptyContinuationOfARevisionClosedFullClosesWithoutAnEmptyRevision() {
        FaninEngine split = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "10m",
                "{outOfOrderness: 0s, idleAfter: 5m}", "    bounds: {maxEventsPerWindow: 2, onOverflow: split}\n"),
                store, emitter, new RecordingTimers(), clock);
        new IngestService(split).handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("a", "e1", T0), T0, 1),
                InMemoryEngines.message("m2", InMemoryEngines.rawEvent("a", "e2", T0), T0, 1)));
        WindowState continuation = split.decode(store.all().get(0));
        assertThat(continuation.status()).as("r0 closed full, its continuation open and empty").isEqualTo(WindowStatus.OPEN);

        OperatorService.Result result = new OperatorService(split).close(continuation.ref(), "stop it");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.CLOSED);
        assertThat(result.aggregate()).isNull();
        assertThat(result.state().status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(result.state().closedUnemitted()).isEqualTo(CloseReason.OPERATOR);
        assertThat(emitter.emitted()).as("r0 only: no empty operator revision r1").hasSize(1);
    }

    /**
     * The revision after a split, whose event came after a sweep closed the empty continuation, is held under HOLD as a
     * HELD window is, and an operator releases it as one (a review: it was "closed already").
     */
    @Test
    void aHeldContinuationIsReleasedByTheOperator() {
        FaninEngine split = InMemoryEngines.of(HOLD + "    bounds: {maxEventsPerWindow: 2, onOverflow: split}\n", store, emitter,
                new RecordingTimers(), clock);
        List<InboundMessage> full = new ArrayList<>();
        for (int shard : new int[] {0, 1}) {
            full.add(InMemoryEngines.message("m" + shard, "{\"k\":\"job-1\",\"id\":" + shard + ",\"n\":4,\"t\":" + T0.toEpochMilli() + "}", T0, 1));
        }
        new IngestService(split).handle(full);
        clock.set(T0.plus(java.time.Duration.ofMinutes(6)));
        new SweepService(split).sweep(clock.instant().plusSeconds(30));
        assertThat(split.decode(store.all().get(0)).closedUnemitted()).as("the empty continuation closed").isNotNull();
        new IngestService(split).handle(List.of(InMemoryEngines.message("m2", "{\"k\":\"job-1\",\"id\":2,\"n\":4,\"t\":"
                + T0.toEpochMilli() + "}", clock.instant(), 1)));
        WindowState held = split.decode(store.all().get(0));
        assertThat(held.heldContinuation(split.config().pipelines().get(0))).isTrue();

        OperatorService.Result result = new OperatorService(split).close(held.ref(), "release it");

        assertThat(result.outcome()).isEqualTo(OperatorService.Outcome.CLOSED);
        assertThat(result.aggregate().revision()).isEqualTo(1);
        assertThat(result.aggregate().closeReason()).isEqualTo(CloseReason.OPERATOR);
        assertThat(emitter.emitted()).as("the split r0, then the released r1").hasSize(2);
    }
}
