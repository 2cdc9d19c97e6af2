package dev.fanin.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** Prints the benchmark's Markdown: one table per profile, then the summary across profiles. */
final class Report {

    private Report() { }

    /** The event source mappings' empty long polls over a run's span, which its SQS figures include. */
    static void emptyPolls(PrintStream out, Duration span) {
        out.printf(Locale.ROOT, "Empty long polls over the run's %.0f s (in the SQS figures): fanin %d (%d input and %d timer pollers), a "
                        + "baseline %d (%d pollers).%n%n", span.toMillis() / 1e3, EventSourcePolls.fanin(span),
                EventSourcePolls.FANIN_INPUT.pollers(), EventSourcePolls.FANIN_TIMERS.pollers(), EventSourcePolls.BASELINE.over(span),
                EventSourcePolls.BASELINE.pollers());
    }

    static void profile(PrintStream out, BenchMain.ProfileReport r, PriceTable prices) {
        ProfileFigures f = r.fanin();
        ProfileFigures b = r.baseline();
        ProfileFigures c = r.competent();
        Simulation.Result t = r.timers();
        out.printf("## %s%n%n%s. %d events in %d SQS batches; fanin fired %d windows (%d aggregate events), the baselines %d windows.%n",
                r.workload().name(), r.workload().summary(), f.events(), t.batches(), f.windows(), f.emitted(), b.windows());
        out.printf("Outcomes: %d accepted, %d duplicates, %d late (corrections), %d too late, %d side-output records, %d failed "
                        + "deliveries; %d timers armed, %d delivered; %d sweeps.%n%n",
                t.accepted(), t.duplicates(), t.late(), t.tooLate(), t.sideRecords(), t.failedMessages(), t.timersArmed(),
                t.timersDelivered(), t.sweeps());
        emptyPolls(out, t.span());
        out.println("| per profile | fanin | naive baseline | competent baseline | fanin / competent |");
        out.println("|---|---:|---:|---:|---:|");
        row(out, "DynamoDB calls per event", f.callsPerEvent(), b.callsPerEvent(), c.callsPerEvent(), "%.3f");
        row(out, "write units per event (windows, counter, watermark, due buckets)", f.writeUnitsPerEvent(), b.writeUnitsPerEvent(),
                c.writeUnitsPerEvent(), "%.3f");
        out.printf("| of which due-bucket write units per event | %.3f | - | - | |%n", f.bill().dueBucketWriteUnits() / f.events());
        row(out, "write units per window", f.writeUnitsPerWindow(), b.writeUnitsPerWindow(), c.writeUnitsPerWindow(), "%.1f");
        row(out, "read units per window flushed", f.readUnitsPerWindow(), b.readUnitsPerWindow(), c.readUnitsPerWindow(), "%.1f");
        row(out, "emitted events per window", f.emittedPerWindow(), b.emittedPerWindow(), c.emittedPerWindow(), "%.2f");
        row(out, "DynamoDB $ per million events", f.dynamoDbPerMillion(prices), b.dynamoDbPerMillion(prices),
                c.dynamoDbPerMillion(prices), "%.2f");
        row(out, "Lambda wait on calls, ms per event", f.waitMillis(prices.waits()) / f.events(),
                b.waitMillis(prices.waits()) / b.events(), c.waitMillis(prices.waits()) / c.events(), "%.2f");
        row(out, "Lambda $ per million events", f.lambdaPerMillion(prices), b.lambdaPerMillion(prices), c.lambdaPerMillion(prices), "%.2f");
        row(out, "SQS $ per million events", f.sqsPerMillion(prices), b.sqsPerMillion(prices), c.sqsPerMillion(prices), "%.2f");
        row(out, "EventBridge $ per million events", f.eventBridgePerMillion(prices), b.eventBridgePerMillion(prices),
                c.eventBridgePerMillion(prices), "%.2f");
        row(out, "**total $ per million events**", f.totalPerMillion(prices), b.totalPerMillion(prices), c.totalPerMillion(prices), "%.2f");
        out.printf("%nfanin DynamoDB calls: %s; mean head item written: %.0f bytes. Functions' WriteUnits metric: %.1f; benchmark's table write units for window "
                        + "writes: %.1f (watermark advances add %.1f, open-window slot updates %.1f).%n",
                f.bill().callsByOperation(), t.meanHeadBytes(), t.windowWriteUnitsMetric(),
                t.bill().tableWriteUnits() - t.watermarkWriteUnits() - t.slotWriteUnits(), t.watermarkWriteUnits(), t.slotWriteUnits());
        out.println(writesByPurpose(t, f.events()));
        out.printf("Ingest CPU per event (this machine, median [range] of the passes): core alone %s; handler path with in-memory "
                + "ports %s; ratio %.1fx.%n", r.cpu().core().describe(), r.cpu().endToEnd().describe(), r.cpu().ratio());
        out.printf("Close latency p50 / p90 / p99 / max (simulated): with timers %s over %d windows %s; sweeper alone (every %d s) %s%s.%n%n",
                r.timerLatency().percentiles(), r.timerLatency().windows(), r.timerLatency().byReason(),
                Simulation.SWEEP_EVERY.toSeconds(), r.sweepLatency().percentiles(),
                r.timerLatency().negative() + r.sweepLatency().negative() > 0
                        ? String.format(" (%d emissions before the oracle's condition, the earliest %.1f s before)",
                        r.timerLatency().negative() + r.sweepLatency().negative(),
                        -Math.min(r.timerLatency().min(), r.sweepLatency().min()) / 1000.0) : "");
    }

    /** fanin's write units per event split by what they buy (issue 14 item 2): the window writes and each fixed mechanism. */
    static String writesByPurpose(Simulation.Result t, long events) {
        DynamoDbBill bill = t.bill();
        double windows = bill.tableWriteUnits() - t.watermarkWriteUnits() - t.slotWriteUnits();
        double n = Math.max(1, events);
        return String.format(Locale.ROOT, "fanin write units per event by purpose: window writes %.3f, due buckets %.3f, open-window counter %.3f, "
                + "watermark %.3f, pipeline history %.3f.", windows / n, bill.dueBucketWriteUnits() / n, t.slotWriteUnits() / n,
                t.watermarkWriteUnits() / n, t.upkeep().historyWriteUnits() / n);
    }

    /** The bill split by function, then what one pipeline's ingest takes a second and what binds it ({@link Throughput}). */
    static void throughput(PrintStream out, BenchMain.ProfileReport r, Throughput.Result t, PriceTable prices) {
        Simulation.Result run = r.timers();
        out.println("| per invocation | invocations | messages | DynamoDB calls | of which Query pages | read units | PutEvents | SQS sends "
                + "| wait on calls, ms |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        functionRow(out, "ingest", run.ingestLoad(), prices);
        functionRow(out, "timer", run.timerLoad(), prices);
        functionRow(out, "sweeper", run.sweeperLoad(), prices);
        double sweeps = Math.max(1, run.sweeperLoad().invocations());
        out.printf(Locale.ROOT, "%nA sweep's shards work on %d threads at once (template SweepParallelism): of its %.1f ms of waits, "
                        + "%.1f ms run beside another thread's, so Lambda bills %.1f ms a sweep.%n",
                Simulation.SWEEP_PARALLELISM, run.sweeperLoad().millisPerInvocation(prices.waits()),
                run.bill().overlappedMillis(DynamoDbBill.SWEEPER) / sweeps,
                run.sweeperLoad().millisPerInvocation(prices.waits()) - run.bill().overlappedMillis(DynamoDbBill.SWEEPER) / sweeps);
        out.printf("%nThroughput: an ingest invocation of %.1f messages waits %.1f ms on its calls, so one concurrent invocation takes "
                        + "%,.0f events/s. Ceilings (events/s): %s. **Sustained: %,.0f events/s, bound by %s**; 5,000 events/s would "
                        + "take %d concurrent invocations.%n%n",
                t.messagesPerInvocation(), t.millisPerInvocation(), t.perInvocation(),
                String.join("; ", t.ceilings().stream().map(c -> String.format("%s: %,.0f", c.limit(), c.messagesPerSecond())).toList()),
                t.sustained(), t.binding().limit(), t.concurrencyFor(5_000));
    }

    private static void functionRow(PrintStream out, String name, FunctionLoad load, PriceTable prices) {
        double n = Math.max(1, load.invocations());
        out.printf("| %s | %d | %.1f | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |%n", name, load.invocations(), load.messagesPerInvocation(),
                load.calls() / n, load.pages() / n, load.readUnits() / n, load.putEvents() / n, load.sqsSends() / n,
                load.millisPerInvocation(prices.waits()));
    }

    static void summary(PrintStream out, List<BenchMain.ProfileReport> reports, List<Throughput.Result> throughputs, PriceTable prices) {
        out.println("## Summary");
        out.println();
        out.println("| profile | WU/event fanin | naive | competent | WU fanin / competent | calls/event fanin | naive | competent "
                + "| $/M events fanin | naive | competent | $ fanin / competent | close p99 timers | close p99 sweeper "
                + "| sustained events/s | bound by |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (int i = 0; i < reports.size(); i++) {
            BenchMain.ProfileReport r = reports.get(i);
            Throughput.Result t = throughputs.get(i);
            ProfileFigures f = r.fanin();
            ProfileFigures b = r.baseline();
            ProfileFigures c = r.competent();
            out.printf("| %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f s | %.1f s | %,.0f | %s |%n",
                    r.workload().name(), f.writeUnitsPerEvent(), b.writeUnitsPerEvent(), c.writeUnitsPerEvent(),
                    f.writeUnitsPerEvent() / c.writeUnitsPerEvent(), f.callsPerEvent(), b.callsPerEvent(), c.callsPerEvent(),
                    f.totalPerMillion(prices), b.totalPerMillion(prices), c.totalPerMillion(prices),
                    f.totalPerMillion(prices) / c.totalPerMillion(prices), r.timerLatency().p99() / 1000.0, r.sweepLatency().p99() / 1000.0,
                    t.sustained(), t.binding().limit());
        }
        out.println();
    }

    private static void row(PrintStream out, String label, double fanin, double naive, double competent, String format) {
        String ratio = competent == 0 ? "" : String.format("%.2f", fanin / competent);
        out.printf("| %s | " + format + " | " + format + " | " + format + " | %s |%n", label, fanin, naive, competent, ratio);
    }
}
