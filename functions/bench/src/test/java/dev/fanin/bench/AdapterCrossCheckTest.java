package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.aws.dynamodb.DynamoDbWatermarkStore;
import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.dynamodb.DynamoDbItemSize;
import dev.fanin.aws.dynamodb.DynamoDbPipelineHistory;
import dev.fanin.aws.dynamodb.DynamoDbWindowStore;
import dev.fanin.aws.dynamodb.SliceCache;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.port.PipelineHistory;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.CountingDynamoDb;
import dev.fanin.testkit.LocalAws;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.TemplateResources;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * The cost model against the real adapters on a local DynamoDB (moto through the testkit): the same small workload
 * through the same services makes the same DynamoDB calls, operation by operation, and the adapter's size-based
 * write units (its metric) equal the model's; the naive baseline's real implementation makes the calls its model
 * bills. Counts only.
 */
@ExtendWith(LocalAws.class)
class AdapterCrossCheckTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();
    private String table;

    /** A table per test: a counter, due buckets or sessions another test left would change the calls made. */
    @BeforeEach
    void createTable(LocalAwsEndpoint endpoint) {
        table = TemplateResources.load(TemplateResources.locateTemplate())
                .createOn(endpoint, "bench" + System.nanoTime() % 1_000_000 + "-").tableName();
    }

    @Test
    void sparseTrafficMakesTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        assertThat(crossCheck(dynamo, Workloads.named("sparse", 0.005, 3)).calls()).as("live items read together")
                .containsKey("BatchGetItem");
    }

    /** Time windows of several sensors in each batch: their heads read together, as the model bills them. */
    @Test
    void timeWindowsOfSeveralSensorsABatchMakeTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        assertThat(crossCheck(dynamo, Workloads.named("late-heavy", 0.02, 3)).calls()).as("heads read together")
                .containsKey("BatchGetItem");
    }

    @Test
    void aFileUploadWithSpillsMakesTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        crossCheck(dynamo, Workloads.named("file-uploads", 0.01, 3));
    }

    /** A time window sealing a slice at nearly every batch, loaded in turn by several containers: bounded loads, call by call. */
    @Test
    void aGrowingWindowLoadedInSeveralContainersMakesTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        crossCheck(dynamo, BenchPipelines.grow("grow-rollup"), Workloads.oneSensor("grow", "grow.tumbling", 1_200, 250));
    }

    /**
     * A key with committed sessions and producer duplicates landing in them: the descending query for committed
     * sessions around an event, page by page, as the model bills it.
     */
    @Test
    void aKeyWithDuplicatesOfCommittedSessionsMakesTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        Workload history = Workloads.history(1, 0.02, 5);
        assertThat(crossCheck(dynamo, history).real().duplicates()).as("duplicates that land in committed sessions").isPositive();
    }

    /**
     * Sessions of 40 alerts, each spilling a slice, and duplicates landing in them once committed: the descending
     * query meets slices and goes on from their session's head, and the slices are read as a loaded head's.
     */
    @Test
    void duplicatesOfCommittedSessionsWithSlicesMakeTheSameCallsOnTheAdapterAsInTheModel(DynamoDbClient dynamo) {
        Workload history = Workloads.history(1, 0.01, 5, 40);
        assertThat(crossCheck(dynamo, history).real().duplicates()).as("duplicates that land in committed sessions").isPositive();
    }

    @Test
    void theNaiveBaselineOnDynamoDbMakesTheCallsItsModelBills(DynamoDbClient dynamo) {
        List<Event> events = BenchMain.parse(CONFIG, Workloads.named("alert-storm", 0.01, 5)).subList(0, 120);
        Map<String, PipelineConfig> pipelines = BenchMain.pipelines(CONFIG);
        NaiveBaseline model = new NaiveBaseline(pipelines);
        events.forEach(model::accept);
        BaselineWindows windowing = new BaselineWindows(pipelines);
        Map<String, Long> calls = new TreeMap<>();
        DynamoDbClient counted = CountingDynamoDb.over(dynamo, calls);
        String run = "run" + System.nanoTime() + "-";
        for (Event e : events) {
            try {
                counted.putItem(b -> b.tableName(table)
                        .item(Map.of("pk", AttributeValue.fromS(run + NaiveBaseline.dedupeKey(e)), "sk", AttributeValue.fromS("D"),
                                "ttl", AttributeValue.fromN("1800000000")))
                        .conditionExpression("attribute_not_exists(pk)"));
            } catch (ConditionalCheckFailedException duplicate) {
                continue;
            }
            for (String windowId : windowing.of(e)) {
                counted.updateItem(b -> b.tableName(table)
                        .key(Map.of("pk", AttributeValue.fromS(run + BaselineWindows.partitionKey(e)), "sk", AttributeValue.fromS(windowId)))
                        .updateExpression("ADD cnt :one, ids :id SET #ttl = :ttl")
                        .expressionAttributeNames(Map.of("#ttl", "ttl"))
                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"), ":id", AttributeValue.fromSs(List.of(e.eventId())),
                                ":ttl", AttributeValue.fromN("1800000000"))));
            }
        }

        assertThat(calls).containsExactlyInAnyOrderEntriesOf(Map.of(
                "PutItem", model.bill().calls("PutItem"), "UpdateItem", model.bill().calls("UpdateItem")));
        long stored = events.stream().map(BaselineWindows::partitionKey).distinct().mapToLong(pk -> dynamo.query(QueryRequest.builder()
                .tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(run + pk))).build()).count()).sum();
        assertThat(stored).isEqualTo(model.windows());
    }

    @Test
    void theCompetentBaselineOnDynamoDbMakesTheCallsItsModelBills(DynamoDbClient dynamo) {
        List<List<Event>> batches = BenchMain.parseBatches(CONFIG, Workloads.named("alert-storm", 0.01, 5), Simulation.BatchShape.DEFAULT);
        List<List<Event>> redelivered = new ArrayList<>(batches.subList(0, 12));
        redelivered.addAll(batches.subList(4, 8)); // a redelivery: every digest there, one refused update each
        redelivered.add(batches.get(9).stream().skip(1).toList()); // part of a batch again, beside nothing new
        CompetentBaseline model = new CompetentBaseline(BenchMain.pipelines(CONFIG));
        redelivered.forEach(model::acceptBatch);
        model.flushAll();
        Map<String, Long> calls = new TreeMap<>();
        Map<String, Double> readUnits = new TreeMap<>();
        DynamoDbClient counted = CountingDynamoDb.over(dynamo, calls, (method, args) -> {
            Object response = passOn(dynamo, method, args);
            ReturnedReads.of(args[0], response).ifPresent(units -> readUnits.merge("Query", units, Double::sum));
            return response;
        });
        String run = "run" + System.nanoTime() + "-";
        CompetentBaseline real = new CompetentBaseline(BenchMain.pipelines(CONFIG));
        redelivered.forEach(batch -> real.acceptBatch(batch, new CompetentBaseline.WindowItems() {
            public Set<String> addIfNoneThere(String pk, String windowId, List<String> digests) {
                return conditionalAdd(counted, run + pk, windowId, digests);
            }

            public void lookUpSession(String pk, String windowId) {
                counted.query(QueryRequest.builder().tableName(table).keyConditionExpression("pk = :pk AND sk <= :sk").scanIndexForward(false)
                        .limit(1).consistentRead(true).expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(run + pk), ":sk",
                                AttributeValue.fromS(windowId))).build());
            }
        }));
        List<Map<String, AttributeValue>> stored = dynamo.scanPaginator(b -> b.tableName(table)).items().stream()
                .filter(item -> item.get("pk").s().startsWith(run)).toList();
        stored.forEach(item -> flush(counted, item));

        assertThat(calls).isEqualTo(new TreeMap<>(model.bill().callsByOperation()));
        assertThat(readUnits).isEqualTo(new TreeMap<>(model.bill().readUnitsByOperation()));
        long counts = batches.subList(0, 12).stream().flatMap(List::stream).map(e -> List.of(BaselineWindows.partitionKey(e), e.eventId()))
                .distinct().count();
        assertThat(stored.stream().mapToLong(item -> Long.parseLong(item.get("cnt").n())).sum()).as("every distinct event counted once")
                .isEqualTo(counts);
    }

    /** The call made on {@code dynamo}, its own exception thrown as it is. */
    private static Object passOn(DynamoDbClient dynamo, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(dynamo, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The design's flush: flag the item unless flagged, and take the item back from the update itself. */
    private void flush(DynamoDbClient dynamo, Map<String, AttributeValue> item) {
        var flushed = dynamo.updateItem(b -> b.tableName(table).key(Map.of("pk", item.get("pk"), "sk", item.get("sk")))
                .updateExpression("SET flushed = :t").conditionExpression("attribute_not_exists(flushed)")
                .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true)))
                .returnValues(software.amazon.awssdk.services.dynamodb.model.ReturnValue.ALL_NEW));
        assertThat(flushed.attributes()).containsKey("cnt");
    }

    /**
     * The pipeline history's upkeep bills the adapter's own items: a read is the adapter's two queries, each billed by
     * the items it returns; a ran item and a definition cost what the adapter's puts of them cost.
     */
    @Test
    void thePipelineHistorysUpkeepBillsTheAdaptersItemsAndQueries(DynamoDbClient dynamo) {
        List<Double> readUnits = new ArrayList<>();
        List<Double> writeUnits = new ArrayList<>();
        Map<String, Long> calls = new TreeMap<>();
        DynamoDbClient counted = CountingDynamoDb.over(dynamo, calls, (method, args) -> {
            Object response = passOn(dynamo, method, args);
            if (response instanceof QueryResponse page) {
                readUnits.add(CapacityRules.strongReadUnits(page.items().stream().mapToLong(DynamoDbItemSize::bytes).sum()));
            } else if (args != null && args[0] instanceof PutItemRequest put) {
                writeUnits.add(CapacityRules.writeUnits(0, DynamoDbItemSize.bytes(put.item())));
            }
            return response;
        });
        DynamoDbPipelineHistory history = new DynamoDbPipelineHistory(counted, table);
        String document = BenchPipelines.document(CONFIG);
        List<String> pipelines = CONFIG.pipelines().stream().map(PipelineConfig::name).toList();
        Instant now = Instant.parse("2026-11-29T00:00:00Z");

        history.record(pipelines.stream().map(p -> new PipelineHistory.Definition(p, document, now.plus(java.time.Duration.ofDays(2)))).toList());
        history.ran(pipelines, now);
        history.recorded();
        PipelineHistoryUpkeep model = new PipelineHistoryUpkeep(CONFIG, document, now.minus(PipelineHistoryUpkeep.RENEWAL));
        model.invoked(0, DynamoDbBill.INGEST, now);

        assertThat(calls).isEqualTo(model.bill().callsByOperation());
        assertThat(readUnits.stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(model.bill().readUnits()).isGreaterThan(2);
        assertThat(writeUnits.stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(model.bill().writeUnits());
    }

    /**
     * The read units a real call's response stands for, by DynamoDB's rule (developer guide, "Read/write capacity mode"),
     * stated here apart from the model's {@link CapacityRules} so that a change to the model's arithmetic shows: a
     * strongly consistent read is a unit per started 4 KB of the items returned, at least one, an eventually consistent
     * one half that; a {@code BatchGetItem} bills each key it read as its own {@code GetItem}.
     */
    private static final class ReturnedReads {

        static java.util.Optional<Double> of(Object request, Object response) {
            if (response instanceof software.amazon.awssdk.services.dynamodb.model.GetItemResponse get) {
                var asked = (software.amazon.awssdk.services.dynamodb.model.GetItemRequest) request;
                return java.util.Optional.of(units(get.hasItem() ? DynamoDbItemSize.bytes(get.item()) : 0, asked.consistentRead()));
            }
            if (response instanceof QueryResponse page) {
                long bytes = page.items().stream().mapToLong(DynamoDbItemSize::bytes).sum();
                return java.util.Optional.of(units(bytes, ((QueryRequest) request).consistentRead()));
            }
            if (response instanceof software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse batch) {
                var asked = (software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest) request;
                double total = 0;
                for (var table : asked.requestItems().entrySet()) {
                    var returned = batch.responses().getOrDefault(table.getKey(), List.of());
                    var unprocessed = batch.unprocessedKeys().get(table.getKey());
                    long missing = table.getValue().keys().size() - returned.size() - (unprocessed == null ? 0 : unprocessed.keys().size());
                    Boolean consistent = table.getValue().consistentRead();
                    total += returned.stream().mapToDouble(item -> units(DynamoDbItemSize.bytes(item), consistent)).sum()
                            + missing * units(0, consistent);
                }
                return java.util.Optional.of(total);
            }
            return java.util.Optional.empty();
        }

        private static double units(long bytes, Boolean consistent) {
            double strong = Math.max(1, Math.ceil(bytes / 4096.0));
            return Boolean.TRUE.equals(consistent) ? strong : strong / 2;
        }
    }

    /** The design's update: ADD the digests unless one is there; on refusal, the digests the old item holds. */
    private Set<String> conditionalAdd(DynamoDbClient dynamo, String pk, String windowId, List<String> digests) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":n", AttributeValue.fromN(Integer.toString(digests.size())),
                ":ids", AttributeValue.fromSs(digests), ":ttl", AttributeValue.fromN("1800000000")));
        List<String> guards = new ArrayList<>();
        for (int i = 0; i < digests.size(); i++) {
            values.put(":d" + i, AttributeValue.fromS(digests.get(i)));
            guards.add("NOT contains(ids, :d" + i + ")");
        }
        String set = "SET #ttl = :ttl";
        if (BaselineWindows.isSession(windowId)) {
            values.put(":t", AttributeValue.fromN("1795910412345"));
            set += ", #first = if_not_exists(#first, :t), #last = :t";
        }
        String update = "ADD cnt :n, ids :ids " + set;
        try {
            dynamo.updateItem(b -> b.tableName(table)
                    .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(windowId)))
                    .updateExpression(update)
                    .conditionExpression(String.join(" AND ", guards))
                    .expressionAttributeNames(update.contains("#first") ? Map.of("#ttl", "ttl", "#first", "first", "#last", "last")
                            : Map.of("#ttl", "ttl"))
                    .expressionAttributeValues(values)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return Set.of();
        } catch (ConditionalCheckFailedException refused) {
            return Set.copyOf(refused.item().get("ids").ss());
        }
    }

    /**
     * The workload through the model and through the adapters, in the same function containers: three ingest and two
     * timer containers (and the sweeper's), each with a slice cache of its own, so slice reads, cache hits and misses
     * are compared call by call.
     */
    private CrossChecked crossCheck(DynamoDbClient dynamo, Workload workload) {
        return crossCheck(dynamo, CONFIG, workload);
    }

    /** The run on the adapters, and the DynamoDB calls it made (which equal the model's). */
    private record CrossChecked(Simulation.Result real, Map<String, Long> calls) { }

    private CrossChecked crossCheck(DynamoDbClient dynamo, FaninConfig config, Workload workload) {
        Simulation.Containers containers = new Simulation.Containers(3, 2);
        Simulation.Result modelled = Simulation.run(config, workload, Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT, containers, null);

        Map<String, Long> calls = new TreeMap<>();
        Map<String, Double> readUnits = new TreeMap<>();
        double[] sizeBased = new double[1];
        DynamoDbClient counted = CountingDynamoDb.over(dynamo, calls, (method, args) -> {
            Object response = passOn(dynamo, method, args);
            ReturnedReads.of(args == null ? null : args[0], response).ifPresent(units -> readUnits.merge(method.getName().substring(0, 1)
                    .toUpperCase(java.util.Locale.ROOT) + method.getName().substring(1), units, Double::sum));
            return response;
        });
        Map<Integer, DynamoDbWindowStore> byContainer = new HashMap<>();
        int[] current = {0};
        WindowStore windows = (WindowStore) Proxy.newProxyInstance(WindowStore.class.getClassLoader(), new Class<?>[] {WindowStore.class},
                (proxy, method, args) -> {
                    DynamoDbWindowStore store = byContainer.computeIfAbsent(current[0], c -> new DynamoDbWindowStore(counted, table,
                            DynamoDbWindowStore.Settings.defaults(), (operation, reported, units) -> sizeBased[0] += units, RetryPolicy.defaults(),
                            SliceCache.ofDefaultSize()));
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        DynamoDbWatermarkStore watermarks = new DynamoDbWatermarkStore(counted, table, DynamoDbWatermarkStore.Settings.defaults(), 0);
        Simulation.Result real = Simulation.run(config, workload, Simulation.Mode.TIMERS, Simulation.BatchShape.DEFAULT, containers,
                new DynamoDbBill(), new Simulation.Stores() {
                    public WindowStore windows() {
                        return windows;
                    }

                    public void container(int container) {
                        current[0] = container;
                    }

                    public WatermarkStore watermarks() {
                        return watermarks;
                    }

                    public boolean anyDue() {
                        // As the model's store: any window with a due time, a head or a live session (a scan, not counted).
                        return dynamo.scanPaginator(b -> b.tableName(table)).items().stream()
                                .filter(item -> item.get("pk").s().startsWith("W#"))
                                .anyMatch(item -> item.containsKey("due") || (item.containsKey("ses")
                                        && item.get("ses").l().stream().anyMatch(session -> session.m().containsKey("due"))));
                    }

                    public double meanHeadBytes() {
                        return 0;
                    }
                });

        assertThat(real.emitted()).hasSameSizeAs(modelled.emitted());
        assertThat(calls).isEqualTo(new TreeMap<>(modelled.bill().callsByOperation()));
        // The items the real calls returned, by DynamoDB's read rule: the units the model bills, operation by operation.
        assertThat(readUnits).containsOnlyKeys(modelled.bill().readUnitsByOperation().keySet());
        readUnits.forEach((operation, units) -> assertThat(modelled.bill().readUnitsByOperation().get(operation)).as(operation)
                .isCloseTo(units, org.assertj.core.api.Assertions.within(1e-6)));
        // The listener hears window, counter and due-bucket writes; the model bills the buckets apart.
        assertThat(sizeBased[0]).isEqualTo(modelled.bill().tableWriteUnits() + modelled.bill().dueBucketWriteUnits()
                - modelled.watermarkWriteUnits());
        // Not compared: the services' WriteUnits metric on moto, which takes moto's fixed ConsumedCapacity where the
        // adapter has a reported figure; the size-based figure above is the one the functions report.
        return new CrossChecked(real, calls);
    }
}
