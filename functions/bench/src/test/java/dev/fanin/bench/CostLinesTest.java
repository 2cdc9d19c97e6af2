package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fanin.core.config.FaninConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The line items account for every dollar of a run, each on the guarantee it buys. Counts only. */
class CostLinesTest {

    private static final FaninConfig CONFIG = BenchPipelines.load();
    private static final PriceTable PRICES = PriceTable.usEast1();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"alert-storm", "late-heavy", "file-uploads"})
    void theLinesOfEachSideAddUpToItsTotalAndFaninsGuaranteesToItsLines(String profile) {
        BenchMain.ProfileReport report = BenchMain.run(CONFIG, Workloads.named(profile, 0.1, 7), Simulation.BatchShape.DEFAULT, 0);

        CostLines fanin = report.faninLines(PRICES);
        CostLines competent = report.competentLines(PRICES);

        assertThat(fanin.total()).isCloseTo(report.fanin().totalPerMillion(PRICES), within(1e-9));
        assertThat(competent.total()).isCloseTo(report.competent().totalPerMillion(PRICES), within(1e-9));
        assertThat(fanin.byGuarantee().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(fanin.total(), within(1e-9));
        assertThat(competent.byGuarantee()).containsOnlyKeys(Guarantee.CORE);
        assertThat(fanin.byGuarantee()).containsKeys(Guarantee.CORE, Guarantee.TIMERS, Guarantee.SWEEPER, Guarantee.WATERMARK,
                Guarantee.OPEN_BOUND, Guarantee.EXACTLY_ONCE, Guarantee.RETIREMENT);
    }

    /** Late-heavy's corrections are emitted apart from first revisions: those PutEvents calls' wait buys the corrections. */
    @Test
    void theWaitOnPutEventsThatOnlyCorrectionsTakeIsBookedOnTheCorrections() {
        BenchMain.ProfileReport report = BenchMain.run(CONFIG, Workloads.named("late-heavy", 0.1, 7), Simulation.BatchShape.DEFAULT, 0);

        CostLines.Line wait = report.faninLines(PRICES).lines().stream().filter(l -> l.item().startsWith("Lambda wait on PutEvents")
                && l.guarantee() == Guarantee.CORRECTIONS).findFirst().orElseThrow();

        assertThat(wait.calls()).isPositive();
        assertThat(wait.dollars()).isPositive();
    }

    /** Late-heavy sends its too-late events to the side output: a SendMessage each, and its wait, on the corrections. */
    @Test
    void eachTooLateEventIsOneSideOutputSendBookedOnTheCorrections() {
        BenchMain.ProfileReport report = BenchMain.run(CONFIG, Workloads.named("late-heavy", 0.1, 7), Simulation.BatchShape.DEFAULT, 0);
        long tooLate = report.timers().tooLate();

        CostLines.Line sends = report.faninLines(PRICES).lines().stream().filter(l -> l.item().startsWith("SQS side output"))
                .findFirst().orElseThrow();

        assertThat(tooLate).as("late-heavy has events past lateness").isPositive();
        assertThat(sends.guarantee()).isEqualTo(Guarantee.CORRECTIONS);
        assertThat(sends.calls() * report.fanin().events()).isCloseTo(tooLate, within(1e-6));
        double perSend = PRICES.perMillionSqsRequests() / 1e6
                + PRICES.waits().sqsSend() / 1e3 * PRICES.lambdaMemoryGb() * PRICES.perGbSecond();
        assertThat(sends.dollars()).isCloseTo(tooLate * perSend / report.fanin().events() * 1e6, within(1e-9));
    }

    @Test
    void everyCallOfARunIsBookedOnAPurposeAndTheLinesAddUpToTheBill() {
        Simulation.Result run = Simulation.run(CONFIG, Workloads.named("late-heavy", 0.1, 7), Simulation.Mode.TIMERS,
                Simulation.BatchShape.DEFAULT);

        assertThat(run.bill().lines().keySet()).noneMatch(line -> line.purpose() == Purpose.UNTAGGED);
        // The bill's totals are sums of its lines; what the partitions were given is counted apart, so the purposes that
        // tell the fixed items' units apart must add up to what those items' partitions were given.
        assertThat(partitionWriteUnits(run, "B#")).isCloseTo(run.bill().dueBucketWriteUnits(), within(1e-9)).isPositive();
        assertThat(partitionWriteUnits(run, "C#")).isCloseTo(run.slotWriteUnits(), within(1e-9)).isPositive();
        assertThat(partitionWriteUnits(run, "M#")).isCloseTo(run.watermarkWriteUnits(), within(1e-9)).isPositive();
        assertThat(run.bill().lines().keySet()).extracting(DynamoDbBill.Line::function)
                .containsOnly(DynamoDbBill.INGEST, DynamoDbBill.TIMER, DynamoDbBill.SWEEPER);
        assertThat(run.bill().lines().keySet()).extracting(DynamoDbBill.Line::purpose)
                .contains(Purpose.CORRECTION, Purpose.CLAIM, Purpose.COMMIT, Purpose.DUE_QUERY, Purpose.WATERMARK_READ);
    }

    @Test
    void aVisitsLoadBeforeItsFirstClaimIsBookedWithTheDesignsWork() {
        Simulation.Result run = Simulation.run(CONFIG, Workloads.named("sparse", 0.1, 7), Simulation.Mode.TIMERS,
                Simulation.BatchShape.DEFAULT);
        java.util.Map<DynamoDbBill.Line, Spent> lines = run.bill().lines();
        Spent claims = lines.get(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.CLAIM));
        Spent claimLoads = lines.get(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.CLAIM_LOAD));

        assertThat(claims.callCount()).as("sparse sessions close by their timers").isPositive();
        assertThat(claimLoads.calls()).as("one GetItem per first claim, each the claim's own visit's")
                .isEqualTo(java.util.Map.of("GetItem", claims.callCount()));
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.CLAIM_LOAD))).isEqualTo(Guarantee.CORE);
        assertThat(lines.keySet()).noneMatch(line -> line.purpose() == Purpose.CLAIM_LOAD && line.function().equals(DynamoDbBill.INGEST));
    }

    private static double partitionWriteUnits(Simulation.Result run, String prefix) {
        return run.bill().partitions().stream().filter(p -> p.partition().startsWith(prefix)).mapToDouble(DynamoDbBill.PartitionUnits::writeUnits).sum();
    }

    @Test
    void aLoadBuysWhatItsFunctionDoes() {
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.INGEST, Purpose.LIVE_LOAD))).isEqualTo(Guarantee.CORE);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.LIVE_LOAD))).isEqualTo(Guarantee.TIMERS);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.SWEEPER, Purpose.HEAD_LOAD))).isEqualTo(Guarantee.SWEEPER);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.CLAIM))).isEqualTo(Guarantee.CORE);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.COMMIT))).isEqualTo(Guarantee.EXACTLY_ONCE);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.COMMITTED_HEAD))).isEqualTo(Guarantee.EXACTLY_ONCE);
        // The live item keeps racing invocations from counting an event twice; leaving it is that item's price, not the commit's.
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.TIMER, Purpose.LIVE_REMOVAL))).isEqualTo(Guarantee.ONE_VIEW_PER_KEY);
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.INGEST, Purpose.DUE_PUT))).isEqualTo(Guarantee.SWEEPER);
    }

    /** On `history` the committed sessions' queries find duplicates' sessions (no event is late): the design's lookup. */
    @Test
    void aCommittedSessionQueryIsTheDesignsLookupOfASessionByEventTime() {
        assertThat(CostLines.guaranteeOf(new DynamoDbBill.Line(DynamoDbBill.INGEST, Purpose.COMMITTED_QUERY))).isEqualTo(Guarantee.CORE);
    }

    @Test
    void everyGroupOfTheSummaryBuysOneGuarantee() {
        java.util.Map<String, java.util.Set<Guarantee>> byGroup = new java.util.HashMap<>();
        for (String function : java.util.List.of(DynamoDbBill.INGEST, DynamoDbBill.TIMER, DynamoDbBill.SWEEPER)) {
            for (Purpose purpose : Purpose.values()) {
                DynamoDbBill.Line line = new DynamoDbBill.Line(function, purpose);
                byGroup.computeIfAbsent(CostLines.groupOf(line), g -> new java.util.HashSet<>()).add(CostLines.guaranteeOf(line));
            }
        }

        assertThat(byGroup.values()).allSatisfy(guarantees -> assertThat(guarantees).hasSize(1));
    }

    @Test
    void aSnapshotDifferenceKeepsTheLines() {
        DynamoDbBill bill = new DynamoDbBill();
        bill.function(DynamoDbBill.SWEEPER);
        bill.purpose(Purpose.DUE_QUERY);
        bill.call("Query");
        bill.read(2);
        DynamoDbBill earlier = bill.copy();
        bill.call("Query");
        bill.read(3);

        Spent since = bill.since(earlier).lines().get(new DynamoDbBill.Line(DynamoDbBill.SWEEPER, Purpose.DUE_QUERY));

        assertThat(since.callCount()).isEqualTo(1);
        assertThat(since.readUnits()).isEqualTo(3);
    }
}
