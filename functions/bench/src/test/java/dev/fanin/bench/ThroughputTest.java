package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The throughput arithmetic over fixed bills: pure, no run, no timing. */
class ThroughputTest {

    private static final PriceTable.CallMillis WAITS = new PriceTable.CallMillis(4, 8, 5, 0.3, 12, 8);

    /**
     * 10 invocations of 10 messages: 20 PutItem (80 ms), 10 Query pages (50 ms), 100 read units (30 ms), 5 PutEvents
     * (60 ms) and 5 SQS sends (40 ms) wait 260 ms, 26 ms an invocation: 10 / 0.026 = 384.6 messages a second.
     */
    private static final FunctionLoad INGEST = new FunctionLoad(10, 100, Map.of("PutItem", 20L, "Query", 10L), 100, 20, 5, 5);

    @Test
    void aFixedBillGivesTheWaitPerInvocationAndTheRateOfOneInvocation() {
        Throughput.Result result = Throughput.of(INGEST, List.of(), WAITS, Throughput.Limits.aws(5, Duration.ZERO));

        assertThat(result.millisPerInvocation()).isCloseTo(26, within(1e-9));
        assertThat(result.messagesPerInvocation()).isEqualTo(10);
        assertThat(result.perInvocation()).isCloseTo(10_000 / 26.0, within(1e-9));
        assertThat(result.sustained()).isCloseTo(5 * 10_000 / 26.0, within(1e-9));
        assertThat(result.binding().limit()).isEqualTo("IngestMaxConcurrency 5");
        assertThat(result.concurrencyFor(4_000)).isEqualTo(11); // 4,000 / 384.6 = 10.4
    }

    /**
     * The concurrency ceiling at 5 is 1,923.08 messages a second. A partition taking 0.52 write units a message
     * reaches its 1,000 WCU at 1,923.08 too: just below that share the concurrency binds, just above it the partition.
     */
    @ParameterizedTest(name = "{0} write units on the hot partition -> {1}")
    @CsvSource({
            "51.9, IngestMaxConcurrency 5",
            "52.1, writes on partition W#p#hot (1000 WCU)"})
    void theHotPartitionsWritesBindOnlyPastTheConcurrencyCeiling(double writeUnits, String binding) {
        List<DynamoDbBill.PartitionUnits> partitions = List.of(new DynamoDbBill.PartitionUnits("W#p#cold", 10, 10),
                new DynamoDbBill.PartitionUnits("W#p#hot", writeUnits, 10));

        Throughput.Result result = Throughput.of(INGEST, partitions, WAITS, Throughput.Limits.aws(5, Duration.ZERO));

        assertThat(result.binding().limit()).isEqualTo(binding);
        assertThat(result.ceilings()).extracting(Throughput.Ceiling::limit).contains("writes on partition W#p#hot (1000 WCU)");
    }

    /** Reads: 3,000 RCU at 1,923.08 messages a second is 1.56 read units a message (156 over the run's 100). */
    @ParameterizedTest(name = "{0} read units on the hot partition -> {1}")
    @CsvSource({
            "155.9, IngestMaxConcurrency 5",
            "156.1, reads on partition W#p#hot (3000 RCU)"})
    void theHotPartitionsReadsBindOnlyPastTheConcurrencyCeiling(double readUnits, String binding) {
        List<DynamoDbBill.PartitionUnits> partitions = List.of(new DynamoDbBill.PartitionUnits("W#p#hot", 1, readUnits));

        Throughput.Result result = Throughput.of(INGEST, partitions, WAITS, Throughput.Limits.aws(5, Duration.ZERO));

        assertThat(result.binding().limit()).isEqualTo(binding);
    }

    /** The account's 1,000 binds only when the event source may run more invocations than the account allows. */
    @ParameterizedTest(name = "maximum concurrency {0} -> {1}")
    @CsvSource({
            "999, IngestMaxConcurrency 999",
            "1001, Lambda account concurrency 1000"})
    void theAccountConcurrencyBindsAboveItsOwnCount(int maxConcurrency, String binding) {
        Throughput.Result result = Throughput.of(INGEST, List.of(), WAITS, Throughput.Limits.aws(maxConcurrency, Duration.ZERO));

        assertThat(result.binding().limit()).isEqualTo(binding);
    }

    /** A message is in flight for the batching window plus an invocation: 120,000 / (1 s + 26 ms) a second. */
    @Test
    void theQueuesInFlightLimitCountsTheBatchingWindow() {
        Throughput.Result result = Throughput.of(INGEST, List.of(), WAITS, Throughput.Limits.aws(1_000, Duration.ofSeconds(1)));

        assertThat(result.ceilings()).filteredOn(c -> c.limit().startsWith("SQS"))
                .singleElement().satisfies(c -> assertThat(c.messagesPerSecond()).isCloseTo(120_000 / 1.026, within(1e-6)));
    }

    @Test
    void aLoadIsTheDifferenceOfTwoReadingsAndLoadsAdd() {
        DynamoDbBill bill = new DynamoDbBill();
        bill.call("Query");
        bill.read("W#p#k", 3, 12_000);
        FunctionLoad before = FunctionLoad.reading(bill, 1, 2);
        bill.call("PutItem");
        bill.call("Query");
        bill.write("W#p#k", 2);
        bill.read("W#p#k", 4, 16_000);

        FunctionLoad one = FunctionLoad.reading(bill, 3, 2).since(before, 7);

        assertThat(one).isEqualTo(new FunctionLoad(1, 7, Map.of("PutItem", 1L, "Query", 1L), 4, 2, 2, 0));
        assertThat(one.plus(one)).isEqualTo(new FunctionLoad(2, 14, Map.of("PutItem", 2L, "Query", 2L), 8, 4, 4, 0));
        assertThat(one.pages()).isEqualTo(1);
        assertThat(one.waitMillis(WAITS)).isCloseTo(4 + 5 + 4 * 0.3 + 2 * 12, within(1e-9));
    }
}
