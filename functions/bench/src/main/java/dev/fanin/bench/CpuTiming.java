package dev.fanin.bench;

import dev.fanin.core.memory.ForwardClock;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ingest CPU time per event on this machine, measured with the thread CPU clock around each batch: the pure core
 * ({@link CoreOnlyIngest}) and the handler path ({@link IngestService} with in-memory ports). One warm-up pass of
 * each, then {@code reps} passes alternating the two, so both see the same JIT state and machine load; the report
 * gives the median and the range over the passes.
 */
final class CpuTiming {

    record Spread(double medianMicros, double minMicros, double maxMicros) {

        String describe() {
            return String.format("%.1f us [%.1f-%.1f]", medianMicros, minMicros, maxMicros);
        }
    }

    record Result(Spread core, Spread endToEnd) {

        double ratio() {
            return endToEnd.medianMicros() / core.medianMicros();
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTiming() { }

    static Result measure(FaninConfig config, Workload workload, Simulation.BatchShape shape, int reps) {
        List<List<Arrival>> batches = Simulation.batches(workload.arrivals(), shape);
        int events = workload.arrivals().size();
        corePass(config, batches);
        endToEndPass(config, batches);
        double[] core = new double[reps];
        double[] e2e = new double[reps];
        for (int r = 0; r < reps; r++) {
            core[r] = corePass(config, batches) / 1_000.0 / events;
            e2e[r] = endToEndPass(config, batches) / 1_000.0 / events;
        }
        return new Result(spread(core), spread(e2e));
    }

    private static long corePass(FaninConfig config, List<List<Arrival>> batches) {
        CoreOnlyIngest core = new CoreOnlyIngest(config);
        long nanos = 0;
        for (List<Arrival> batch : batches) {
            Instant at = Simulation.handleAt(batch);
            List<InboundMessage> messages = messages(batch, at);
            long begin = THREADS.getCurrentThreadCpuTime();
            core.handle(messages, at);
            nanos += THREADS.getCurrentThreadCpuTime() - begin;
        }
        return nanos;
    }

    private static long endToEndPass(FaninConfig config, List<List<Arrival>> batches) {
        ForwardClock clock = new ForwardClock(batches.get(0).get(0).at());
        RecordingSideOutput side = new RecordingSideOutput();
        FaninPorts ports = new FaninPorts(new InMemoryWindowStore(16), new InMemoryWatermarkStore(), new RecordingEmitter(),
                new RecordingTimers(), side, side, Metrics.NONE);
        IngestService ingest = new IngestService(new FaninEngine(config, ports, FaninSettings.defaults(), clock));
        long nanos = 0;
        for (List<Arrival> batch : batches) {
            Instant at = Simulation.handleAt(batch);
            clock.advanceTo(at);
            List<InboundMessage> messages = messages(batch, at);
            long begin = THREADS.getCurrentThreadCpuTime();
            ingest.handle(messages);
            nanos += THREADS.getCurrentThreadCpuTime() - begin;
        }
        return nanos;
    }

    private static List<InboundMessage> messages(List<Arrival> batch, Instant at) {
        List<InboundMessage> messages = new ArrayList<>(batch.size());
        for (Arrival a : batch) {
            messages.add(a.message(at));
        }
        return messages;
    }

    private static Spread spread(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Spread(sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
    }
}
