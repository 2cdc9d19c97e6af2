package dev.fanin.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every dollar of a run, per million events, on a line a reader can map to what it buys (issue 14): DynamoDB units and
 * the Lambda time spent waiting on them, by function and {@link Purpose}; Lambda invocations and CPU; SQS input and
 * timer requests; EventBridge events. Each line belongs to a {@link Guarantee}, so fanin's total splits into what the
 * competent design does too and the price of each guarantee it lacks. The lines add up to
 * {@link ProfileFigures#totalPerMillion} to the cent: every figure is a count times a {@link PriceTable} price.
 */
record CostLines(List<Line> lines) {

    /**
     * One line item.
     *
     * @param group      the purpose it shares with other lines in the summary across profiles (DynamoDB lines of
     *                   several functions and purposes; the item itself elsewhere)
     * @param calls      DynamoDB calls (or requests, invocations, events) per event
     * @param writeUnits write units per event
     * @param readUnits  read units per event
     * @param dollars    $ per million events
     */
    record Line(String item, String group, Guarantee guarantee, double calls, double writeUnits, double readUnits, double dollars) { }

    /**
     * What a run used beyond DynamoDB, counted as the simulation counts it.
     *
     * @param invocations   Lambda invocations by function ({@link DynamoDbBill#INGEST}, {@code TIMER}, {@code SWEEPER})
     * @param inputSqs      input queue requests (each batch's receives and deletes, {@link SqsRequests}; the mapping's
     *                      empty long polls)
     * @param timerSqs      timer queue requests (sends, each timer batch's receives and deletes, {@link SqsRequests}; the
     *                      mapping's empty long polls)
     * @param timerSends    the timer send calls the functions wait on
     * @param sideSends     side-output and dead-letter sends (one request each, waited on), by the guarantee they serve
     * @param putEvents     EventBridge PutEvents calls the first revisions take
     * @param correctionPutEvents the PutEvents calls beyond those, which only the later revisions take ({@link TimedEmitter})
     * @param firstRevisions aggregate events of first revisions (a size limit's continuation included)
     * @param laterRevisions aggregate events of later revisions (corrections)
     */
    record Usage(long events, DynamoDbBill bill, Map<String, Long> invocations, long inputSqs, long timerSqs, long timerSends,
                 Map<Guarantee, Long> sideSends, long putEvents, long correctionPutEvents, long firstRevisions, long laterRevisions, double cpuMicrosPerEvent) {

        /** A simulation's usage, with {@code firstRevisions} of its emissions (the rest are later revisions). */
        static Usage of(Simulation.Result run, long events, long firstRevisions, double cpuMicrosPerEvent) {
            Map<String, Long> invocations = Map.of(DynamoDbBill.INGEST, run.batches(), DynamoDbBill.TIMER, run.timerInvocations(),
                    DynamoDbBill.SWEEPER, run.sweeps());
            return new Usage(events, run.pricedBill(), invocations, run.inputSqsRequests(), run.timerSqsRequests(), run.timerSendRequests(),
                    run.sideSends(), run.emitCalls() - run.correctionEmitCalls(), run.correctionEmitCalls(), firstRevisions, run.emitted().size() - firstRevisions,
                    cpuMicrosPerEvent);
        }
    }

    CostLines {
        lines = List.copyOf(lines);
    }

    /** fanin's lines: DynamoDB by function and purpose, the rest by function and service. */
    static CostLines fanin(Usage u, PriceTable prices) {
        List<Line> lines = new ArrayList<>(dynamoDb(u.bill(), u.events(), prices, true));
        PriceTable.CallMillis waits = prices.waits();
        lines.add(invocations("Lambda invocations, ingest", Guarantee.CORE, u, DynamoDbBill.INGEST, prices));
        lines.add(invocations("Lambda invocations, timer", Guarantee.TIMERS, u, DynamoDbBill.TIMER, prices));
        lines.add(invocations("Lambda invocations, sweeper", Guarantee.SWEEPER, u, DynamoDbBill.SWEEPER, prices));
        lines.add(other("Lambda CPU (measured; 0 with --reps 0)", Guarantee.CORE, 0, u.events(),
                lambda(u.cpuMicrosPerEvent() * u.events() / 1_000, prices)));
        lines.add(other("Lambda wait on PutEvents", Guarantee.CORE, u.putEvents(), u.events(), lambda(u.putEvents() * waits.putEvents(), prices)));
        lines.add(other("Lambda wait on PutEvents, later revisions", Guarantee.CORRECTIONS, u.correctionPutEvents(), u.events(),
                lambda(u.correctionPutEvents() * waits.putEvents(), prices)));
        lines.add(other("SQS input (receives, deletes, ten messages each; empty long polls)", Guarantee.CORE, u.inputSqs(), u.events(),
                u.inputSqs() * prices.perMillionSqsRequests() / 1e6));
        lines.add(other("SQS timers (sends, receives, deletes, empty long polls; the sends' wait)", Guarantee.TIMERS, u.timerSqs(), u.events(),
                u.timerSqs() * prices.perMillionSqsRequests() / 1e6 + lambda(u.timerSends() * waits.sqsSend(), prices)));
        u.sideSends().forEach((g, sends) -> lines.add(other(sideOutputItem(g), g, sends, u.events(),
                sends * prices.perMillionSqsRequests() / 1e6 + lambda(sends * waits.sqsSend(), prices))));
        lines.add(other("EventBridge, first revisions", Guarantee.CORE, u.firstRevisions(), u.events(),
                u.firstRevisions() * prices.perMillionEvents() / 1e6));
        lines.add(other("EventBridge, later revisions", Guarantee.CORRECTIONS, u.laterRevisions(), u.events(),
                u.laterRevisions() * prices.perMillionEvents() / 1e6));
        return new CostLines(lines.stream().filter(l -> l.dollars() != 0 || l.calls() != 0).toList());
    }

    /** A baseline's lines: DynamoDB by purpose, one function, no timers; every line is the design's own work. */
    static CostLines baseline(ProfileFigures f, PriceTable prices) {
        List<Line> lines = new ArrayList<>(dynamoDb(f.bill(), f.events(), prices, false));
        lines.add(other("Lambda invocations", Guarantee.CORE, f.invocations(), f.events(), f.invocations() * prices.perMillionInvocations() / 1e6));
        lines.add(other("Lambda CPU (measured; 0 with --reps 0)", Guarantee.CORE, 0, f.events(),
                lambda(f.cpuMicrosPerEvent() * f.events() / 1_000, prices)));
        lines.add(other("Lambda wait on PutEvents", Guarantee.CORE, f.emitCalls(), f.events(), lambda(f.emitCalls() * prices.waits().putEvents(), prices)));
        lines.add(other("SQS input (receives, deletes, ten messages each; empty long polls)", Guarantee.CORE, f.sqsRequests(), f.events(),
                f.sqsRequests() * prices.perMillionSqsRequests() / 1e6));
        lines.add(other("EventBridge", Guarantee.CORE, f.emitted(), f.events(), f.emitted() * prices.perMillionEvents() / 1e6));
        return new CostLines(lines.stream().filter(l -> l.dollars() != 0 || l.calls() != 0).toList());
    }

    double total() {
        return lines.stream().mapToDouble(Line::dollars).sum();
    }

    /** $ per million events by guarantee, in the enum's order (guarantees with no line left out). */
    Map<Guarantee, Double> byGuarantee() {
        Map<Guarantee, Double> sums = new EnumMap<>(Guarantee.class);
        lines.forEach(l -> sums.merge(l.guarantee(), l.dollars(), Double::sum));
        return sums;
    }

    /** What is left once every guarantee the competent design lacks is taken away: the price of its work in fanin. */
    double core() {
        return byGuarantee().getOrDefault(Guarantee.CORE, 0.0);
    }

    /**
     * DynamoDB's lines: units by {@link CapacityRules}, and the Lambda time the calls wait ({@link PriceTable.CallMillis}
     * per call and read unit), largest first. {@code byFunction}: one line per function and purpose, else per purpose.
     * A function whose calls partly waited at once (the sweeper's shard threads, {@link DynamoDbBill#overlap}) has each
     * of its lines billed that share less of its wait.
     */
    private static List<Line> dynamoDb(DynamoDbBill bill, long events, PriceTable prices, boolean byFunction) {
        Map<String, Spent> merged = new TreeMap<>();
        Map<String, Double> billedWait = new TreeMap<>();
        Map<String, Guarantee> guarantees = new TreeMap<>();
        Map<String, String> groups = new TreeMap<>();
        Map<String, Double> billedShare = billedShareOfWait(bill, prices);
        bill.lines().forEach((line, spent) -> {
            String item = byFunction ? line.function() + ": " + line.purpose().label() : line.purpose().label();
            merged.merge(item, spent, CostLines::sum);
            double share = inShards(line) ? billedShare.getOrDefault(line.function(), 1.0) : 1.0;
            billedWait.merge(item, waitMillis(spent, prices) * share, Double::sum);
            guarantees.put(item, byFunction ? guaranteeOf(line) : Guarantee.CORE);
            groups.put(item, byFunction ? groupOf(line) : item);
        });
        List<Line> lines = new ArrayList<>();
        merged.forEach((item, spent) -> {
            double dollars = (spent.writeUnits() * prices.perMillionWriteUnits() + spent.readUnits() * prices.perMillionReadUnits()) / 1e6
                    + lambda(billedWait.get(item), prices);
            lines.add(new Line(item, groups.get(item), guarantees.get(item), (double) spent.callCount() / events, spent.writeUnits() / events,
                    spent.readUnits() / events, dollars / events * 1e6));
        });
        lines.sort(Comparator.comparingDouble(Line::dollars).reversed());
        return lines;
    }

    /**
     * By function, the share of its calls' DynamoDB wait that Lambda bills: 1 less what ran beside its other calls,
     * over the calls that may have ({@link #inShards}).
     */
    private static Map<String, Double> billedShareOfWait(DynamoDbBill bill, PriceTable prices) {
        Map<String, Double> waits = new TreeMap<>();
        bill.lines().forEach((line, spent) -> {
            if (inShards(line)) {
                waits.merge(line.function(), waitMillis(spent, prices), Double::sum);
            }
        });
        Map<String, Double> shares = new TreeMap<>();
        waits.forEach((function, wait) -> shares.put(function, wait == 0 ? 1.0 : 1 - bill.overlappedMillis(function) / wait));
        return shares;
    }

    /** Whether a line's calls may have waited beside others (the sweeper's shard threads): not the history's upkeep, made first. */
    private static boolean inShards(DynamoDbBill.Line line) {
        return switch (line.purpose()) {
            case HISTORY_READ, HISTORY_RAN, HISTORY_RECORD -> false;
            default -> true;
        };
    }

    /** The time a line's DynamoDB calls wait, one after the other. */
    static double waitMillis(Spent spent, PriceTable prices) {
        return prices.waits().of(spent.calls(), spent.readUnits(), 0, 0);
    }

    /**
     * The guarantee a line of fanin's DynamoDB bill buys; a load buys what its function does. A committed-session query
     * finds the session an event's time falls in, whether the event then proves a duplicate or a correction: the
     * competent design makes the same lookup by event time, so it is the design's work.
     */
    static Guarantee guaranteeOf(DynamoDbBill.Line line) {
        return switch (line.purpose()) {
            case DUE_PUT, DUE_QUERY, DUE_DELETE -> Guarantee.SWEEPER;
            case COUNTER_WRITE, COUNTER_READ -> Guarantee.OPEN_BOUND;
            case WATERMARK_WRITE, WATERMARK_READ -> Guarantee.WATERMARK;
            case COMMIT, COMMITTED_HEAD -> Guarantee.EXACTLY_ONCE;
            case LIVE_REMOVAL -> Guarantee.ONE_VIEW_PER_KEY;
            case CORRECTION, TOO_LATE_RECORD -> Guarantee.CORRECTIONS;
            case SESSION_MERGE -> Guarantee.MERGES;
            case HISTORY_READ, HISTORY_RAN, HISTORY_RECORD -> Guarantee.RETIREMENT;
            case HEAD_LOAD, LIVE_LOAD, SLICE_LOAD -> switch (line.function()) {
                case DynamoDbBill.TIMER -> Guarantee.TIMERS;
                case DynamoDbBill.SWEEPER -> Guarantee.SWEEPER;
                default -> Guarantee.CORE;
            };
            default -> Guarantee.CORE;
        };
    }

    /** The purpose a line of fanin's DynamoDB bill shares with others in the summary: a load by its function. */
    static String groupOf(DynamoDbBill.Line line) {
        return switch (line.purpose()) {
            case WINDOW_EVENTS, LIVE_EVENTS -> "writes: events (window heads, live items)";
            case CLAIM -> "writes: claims";
            case COMMIT, COMMITTED_HEAD -> "writes: commits (for a session: its committed head)";
            case LIVE_REMOVAL -> "writes: a committed session's removal from the live item";
            case CORRECTION -> "writes: later revisions' claims and commits (corrections)";
            case TOO_LATE_RECORD -> "writes: too-late verdicts recorded in their window (corrections)";
            case CLAIM_LOAD -> "reads: a visit's load before its first claim (the design's flush reads nothing)";
            case SESSION_MERGE -> "writes: session merges";
            case SLICE_SPILL -> "writes: id slices (spills)";
            case DUE_PUT, DUE_DELETE -> "writes: due buckets (puts, the sweeper's deletes)";
            case COUNTER_WRITE -> "writes: open-window counter";
            case WATERMARK_WRITE -> "writes: watermark";
            case DUE_QUERY -> "reads: the sweeper's due-bucket listing queries";
            case COMMITTED_QUERY -> "reads: committed-session queries (the session of a duplicate's or late event's time)";
            case WATERMARK_READ -> "reads: watermark";
            case COUNTER_READ -> "reads: open-window counter";
            case HISTORY_READ -> "reads: pipeline history (every container, once a minute)";
            case HISTORY_RAN, HISTORY_RECORD -> "writes: pipeline history (ran items, definitions recorded again)";
            case HEAD_LOAD, LIVE_LOAD, SLICE_LOAD -> switch (line.function()) {
                case DynamoDbBill.TIMER -> "reads: timer visits (live item, head, slices)";
                case DynamoDbBill.SWEEPER -> "reads: the sweeper's window visits (live item, head, slices)";
                default -> line.purpose() == Purpose.SLICE_LOAD ? "reads: ingest slice range queries"
                        : "reads: ingest batch loads (live item, head; a commit's re-read after an ingest claim)";
            };
            default -> line.purpose().label();
        };
    }

    /** The line of the side-output sends that serve {@code guarantee} ({@link SideSends}). */
    private static String sideOutputItem(Guarantee guarantee) {
        String records = guarantee == Guarantee.CORRECTIONS ? "too-late events" : "full windows' overflow, dead-lettered windows, dead letters";
        return "SQS side output: " + records + " (a send each; the sends' wait)";
    }

    private static Spent sum(Spent a, Spent b) {
        Spent s = a.copy();
        s.add(b);
        return s;
    }

    private static Line invocations(String item, Guarantee guarantee, Usage u, String function, PriceTable prices) {
        long n = u.invocations().getOrDefault(function, 0L);
        return other(item, guarantee, n, u.events(), n * prices.perMillionInvocations() / 1e6);
    }

    /** @param dollars the line's whole cost over the run */
    private static Line other(String item, Guarantee guarantee, long count, long events, double dollars) {
        return new Line(item, item, guarantee, (double) count / events, 0, 0, dollars / events * 1e6);
    }

    /** Lambda duration dollars for {@code millis} of function time. */
    private static double lambda(double millis, PriceTable prices) {
        return millis / 1e3 * prices.lambdaMemoryGb() * prices.perGbSecond();
    }
}
