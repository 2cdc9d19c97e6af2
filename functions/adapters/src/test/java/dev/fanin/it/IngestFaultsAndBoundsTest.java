package dev.fanin.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.dynamodb.WindowKeys;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.sqs.model.Message;

/** Issue 3: throttling, the bounds, TTL on every item, and the conditions every write carries on the wire. */
class IngestFaultsAndBoundsTest {

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    /** Throws DynamoDB's throttling error for every write touching one partition key, before it is sent. */
    private static final class ThrottleWritesTo implements ExecutionInterceptor {
        private final String pk;

        ThrottleWritesTo(String pk) {
            this.pk = pk;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (pksWritten(context.request()).contains(pk)) {
                throw ProvisionedThroughputExceededException.builder().statusCode(400)
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException")
                                .errorMessage("simulated throttling of " + pk).build())
                        .message("simulated throttling of " + pk).build();
            }
        }
    }

    /** Keeps every write request sent. */
    private static final class RecordWrites implements ExecutionInterceptor {
        final List<SdkRequest> requests = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (!pksWritten(context.request()).isEmpty()) {
                requests.add(context.request());
            }
        }
    }

    private static List<String> pksWritten(SdkRequest request) {
        List<String> pks = new ArrayList<>();
        if (request instanceof PutItemRequest put) {
            pks.add(put.item().get("pk").s());
        } else if (request instanceof UpdateItemRequest update) {
            pks.add(update.key().get("pk").s());
        } else if (request instanceof TransactWriteItemsRequest tx) {
            for (TransactWriteItem item : tx.transactItems()) {
                pks.add(item.put() != null ? item.put().item().get("pk").s() : item.update().key().get("pk").s());
            }
        }
        return pks;
    }

    @Test
    void throttlingFailsExactlyTheMessagesOfTheThrottledWindowAndTheirRedeliveryIsAccepted() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {maxLifetime: 2h}");
        List<InboundMessage> batch = List.of(stack.message("a", "1", T0), stack.message("b", "1", T0),
                stack.message("a", "2", T0), stack.message("b", "2", T0), stack.message("c", "1", T0));
        WindowRef throttled = stack.ref(batch.get(1));
        DynamoDbClient throttling = stack.dynamoDbWith(new ThrottleWritesTo(WindowKeys.windowPk("p", throttled.key())));

        BatchResult result = stack.process(FaninSettings.defaults(), throttling).ingest().handle(batch);
        assertThat(result.failedMessageIds()).containsExactlyInAnyOrder(batch.get(1).messageId(), batch.get(3).messageId());
        assertThat(result.eventsAccepted()).isEqualTo(3);
        assertThat(stack.metrics.sum(MetricNames.STORE_UNAVAILABLE)).isEqualTo(1);
        assertThat(stack.window(throttled)).isEmpty();

        List<InboundMessage> retried = FaninStack.redelivered(List.of(batch.get(1), batch.get(3)));
        BatchResult again = stack.process().ingest().handle(retried);
        assertThat(again.failedMessageIds()).isEmpty();
        assertThat(again.eventsAccepted()).isEqualTo(2);
        assertThat(stack.window(throttled).orElseThrow().revisionEvents()).isEqualTo(2);
        assertThat(stack.window(stack.ref(batch.get(0))).orElseThrow().revisionEvents()).isEqualTo(2);
    }

    @Test
    void openWindowBoundRefusesNewWindowsUntilOneCloses() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {count: 2, maxLifetime: 2h}",
                "bounds: {maxOpenWindows: 2}");
        Process p = stack.process();
        assertThat(p.ingest().handle(List.of(stack.message("a", "1", T0), stack.message("b", "1", T0))).failedMessageIds()).isEmpty();
        InboundMessage c1 = stack.message("c", "1", T0);

        BatchResult refused = p.ingest().handle(List.of(c1));
        assertThat(refused.failedMessageIds()).containsExactly(c1.messageId());
        assertThat(stack.metrics.sum(MetricNames.ADMISSION_REFUSED)).isEqualTo(1);
        assertThat(stack.window(stack.ref(c1))).isEmpty();

        // The second event of "a" reaches the count: "a" closes and frees a slot.
        assertThat(p.ingest().handle(List.of(stack.message("a", "2", T0))).failedMessageIds()).isEmpty();
        assertThat(p.engine().ports().store().openWindows("p")).isEqualTo(1);
        BatchResult admitted = p.ingest().handle(FaninStack.redelivered(List.of(c1)));
        assertThat(admitted.failedMessageIds()).isEmpty();
        assertThat(admitted.eventsAccepted()).isEqualTo(1);
        assertThat(p.engine().ports().store().openWindows("p")).isEqualTo(2);
    }

    @Test
    void fullWindowWithSplitClosesBySizeLimitAndContinuesInTheNextRevision() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {maxLifetime: 2h}",
                "bounds: {maxEventsPerWindow: 3, onOverflow: split}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            batch.add(stack.message("k", "e" + i, T0.plusSeconds(i)));
        }
        WindowRef ref = stack.ref(batch.get(0));
        BatchResult first = stack.process().ingest().handle(batch);
        // The batch fills revision 0 at the third event, which is cut there; the other two count in revision 1 at once.
        assertThat(first.eventsAccepted()).isEqualTo(5);
        assertThat(first.failedMessageIds()).isEmpty();
        JsonNode r0 = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(r0.path("closeReason").asText()).isEqualTo("SIZE_LIMIT");
        assertThat(r0.path("complete").asBoolean()).isFalse();
        assertThat(r0.path("aggregations").path("count").asInt()).isEqualTo(3);
        WindowState continued = stack.window(ref).orElseThrow();
        assertThat(continued.status()).isEqualTo(WindowStatus.OPEN);
        assertThat(continued.revision()).isEqualTo(1);
        assertThat(continued.revisionEvents()).isEqualTo(2);

        BatchResult redelivered = stack.process().ingest().handle(FaninStack.redelivered(List.of(batch.get(3), batch.get(4))));
        assertThat(redelivered.failedMessageIds()).isEmpty();
        assertThat(redelivered.duplicates()).isEqualTo(2);
        // A redelivery of the first three is still recognised: dedupe spans the split.
        assertThat(stack.process().ingest().handle(FaninStack.redelivered(batch.subList(0, 3))).duplicates()).isEqualTo(3);

        stack.clock.advance(Duration.ofHours(3));
        stack.process().sweep();
        JsonNode r1 = stack.emitted(ref.aggregateId(1)).get(0);
        assertThat(r1.path("aggregations").path("count").asInt()).isEqualTo(2);
        assertThat(r1.path("corrects").isNull()).isTrue();
        assertThat(stack.commits()).containsExactly(ref.aggregateId(0), ref.aggregateId(1));
        stack.assertFlushInvariants();
    }

    /**
     * A backlog that fills a window after its end passed: the watermark, not the size bound, closes the full revision,
     * and the rest of the batch waits only until that revision commits, then continues the window as revision 1
     * (corrects nothing). It used to wait in SQS until too late and end in the side output.
     */
    @Test
    void backlogFillingAWindowPastItsEndContinuesItInsteadOfWaitingUntilTooLate() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1m}", "triggers: {maxLifetime: 2h}", "watermark: {outOfOrderness: 5s}",
                "allowedLateness: 1h", "late: {correctionDelay: 10s}", "bounds: {maxEventsPerWindow: 3, onOverflow: split}");
        stack.clock.advance(Duration.ofMinutes(10));
        stack.process().ingest().handle(List.of(stack.message("other", "now", stack.clock.instant())));
        List<InboundMessage> backlog = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            backlog.add(stack.message("k", "e" + i, T0.plusSeconds(i)));
        }
        WindowRef ref = stack.ref(backlog.get(0));

        BatchResult first = stack.process().ingest().handle(backlog);
        assertThat(first.eventsAccepted()).isEqualTo(3);
        assertThat(first.failedMessageIds()).hasSize(2);
        JsonNode r0 = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(r0.path("closeReason").asText()).isEqualTo("WATERMARK");
        assertThat(r0.path("aggregations").path("count").asInt()).isEqualTo(3);

        List<InboundMessage> waited = backlog.stream().filter(m -> first.failedMessageIds().contains(m.messageId())).toList();
        BatchResult redelivered = stack.process().ingest().handle(FaninStack.redelivered(waited));
        assertThat(redelivered.failedMessageIds()).isEmpty();
        assertThat(redelivered.eventsAccepted()).isEqualTo(2);
        stack.clock.advance(Duration.ofMinutes(1));
        stack.process().sweep();

        JsonNode r1 = stack.emitted(ref.aggregateId(1)).get(0);
        assertThat(r1.path("closeReason").asText()).isEqualTo("WATERMARK");
        assertThat(r1.path("corrects").isNull()).as("adds to revision 0").isTrue();
        assertThat(r1.path("aggregations").path("count").asInt()).isEqualTo(2);
        assertThat(stack.drain(stack.resources.queueUrl("LateEventsQueue"))).isEmpty();
        stack.assertFlushInvariants();
    }

    @Test
    void fullWindowWithSideOutputSendsFurtherEventsThereWithTheirReason() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {maxLifetime: 2h}",
                "bounds: {maxEventsPerWindow: 3, onOverflow: side-output}");
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            batch.add(stack.message("k", "e" + i, T0.plusSeconds(i)));
        }
        BatchResult result = stack.process().ingest().handle(batch);
        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(result.eventsAccepted()).isEqualTo(3);
        List<Message> side = stack.drain(stack.resources.queueUrl("LateEventsQueue"));
        assertThat(side).hasSize(2).allSatisfy(m -> {
            assertThat(m.messageAttributes().get("fanin-kind").stringValue()).isEqualTo("WINDOW_FULL");
            assertThat(m.body()).contains("\"reason\":\"WINDOW_FULL: window " + stack.ref(batch.get(0)).windowId()
                    + " already holds bounds.maxEventsPerWindow=3 events (bounds.onOverflow: side-output)\"");
        });
        assertThat(stack.window(stack.ref(batch.get(0))).orElseThrow().revisionEvents()).isEqualTo(3);
    }

    /**
     * Every window head, id slice and watermark shard carries {@code ttl}, past the window's hard deadline. The
     * open-window counters (one item per pipeline and counter shard, {@code C#<pipeline>}) are the one exception by
     * design: they live as long as the pipeline, and a TTL deleting one would reset the admission count.
     */
    @Test
    void everyItemButTheOpenWindowCountersCarriesATtlPastTheHardDeadline() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {count: 3, maxLifetime: 2h}");
        List<InboundMessage> big = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            big.add(stack.message("big", "e" + i, T0));
        }
        Process p = stack.process();
        p.ingest().handle(List.of(stack.message("small", "1", T0)));
        p.ingest().handle(big.subList(0, 2));
        stack.clock.advance(Duration.ofSeconds(5));
        p.ingest().handle(big);

        List<Map<String, AttributeValue>> items = stack.scanTable();
        assertThat(items).extracting(i -> i.get("pk").s().substring(0, 2)).contains("W#", "M#", "C#");
        assertThat(items).anySatisfy(i -> assertThat(i.get("sk").s()).contains("#S#"));
        long deadline = T0.plus(Duration.ofHours(2)).getEpochSecond();
        for (Map<String, AttributeValue> item : items) {
            if (item.get("pk").s().startsWith("C#")) {
                assertThat(item).doesNotContainKey("ttl");
            } else {
                assertThat(item).as(item.get("pk").s() + " " + item.get("sk").s()).containsKey("ttl");
                if (item.get("pk").s().startsWith("W#")) {
                    assertThat(Long.parseLong(item.get("ttl").n())).isGreaterThan(deadline);
                }
            }
        }
    }

    /**
     * On the wire, through a whole life (create, coalesced update, claim by count, emit, commit with the counter
     * release, spill): no window item is ever written without its condition.
     */
    @Test
    void everyWindowWriteOnTheWireCarriesItsCondition() {
        FaninStack stack = FaninStack.rawPipeline(T0, "window: {type: tumbling, size: 1h}", "triggers: {count: 40, maxLifetime: 2h}");
        RecordWrites recorder = new RecordWrites();
        Process p = stack.process(FaninSettings.defaults(), stack.dynamoDbWith(recorder));
        List<InboundMessage> events = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            events.add(stack.message("k", "e" + i, T0));
        }
        p.ingest().handle(events.subList(0, 1));
        p.ingest().handle(events);
        assertThat(stack.commits()).hasSize(1);

        Set<String> seen = new java.util.TreeSet<>();
        for (SdkRequest request : recorder.requests) {
            if (request instanceof PutItemRequest put && put.item().get("pk").s().startsWith("B#")) {
                // A due bucket: a fresh item under a random sort key, so it needs no condition.
                assertThat(put.conditionExpression()).isNull();
                seen.add("due bucket");
            } else if (request instanceof PutItemRequest put) {
                String pk = put.item().get("pk").s();
                assertThat(pk).startsWith("W#");
                assertThat(put.conditionExpression()).isIn("#ver = :expected", "attribute_not_exists(#pk)");
                seen.add("put " + put.conditionExpression());
            } else if (request instanceof UpdateItemRequest update) {
                String pk = update.key().get("pk").s();
                if (pk.startsWith("W#")) {
                    assertThat(update.updateExpression()).isEqualTo("DELETE #ids :spilled SET #sn = :written");
                    assertThat(update.conditionExpression()).isEqualTo("#ver = :written AND (attribute_not_exists(#sn) OR #sn < :written)");
                } else if (pk.startsWith("C#")) {
                    assertThat(update.updateExpression()).isEqualTo("ADD #open :n, #epoch :n");
                    boolean reserve = Long.parseLong(update.expressionAttributeValues().get(":n").n()) > 0;
                    assertThat(update.conditionExpression())
                            .isEqualTo(reserve ? "attribute_not_exists(#open) OR #open <= :room" : "attribute_exists(#epoch)");
                    seen.add((reserve ? "reserve " : "release ") + update.conditionExpression());
                } else {
                    assertThat(pk).startsWith("M#");
                    assertThat(update.conditionExpression()).isNotBlank();
                }
                seen.add("update " + update.updateExpression() + " if " + update.conditionExpression());
            } else {
                throw new AssertionError("no transaction, and nothing but puts, queries and updates: got " + request);
            }
        }
        assertThat(seen).contains("due bucket", "put attribute_not_exists(#pk)", "put #ver = :expected",
                "update DELETE #ids :spilled SET #sn = :written if #ver = :written AND (attribute_not_exists(#sn) OR #sn < :written)",
                "reserve attribute_not_exists(#open) OR #open <= :room", "release attribute_exists(#epoch)");
    }
}
