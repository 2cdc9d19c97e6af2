package dev.fanin.bench.jmh;

import dev.fanin.bench.BenchPipelines;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import dev.fanin.core.window.WindowRef;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the pure core on one thread: assign an event to its window, accumulate it and decide
 * ({@link WindowMachine#ingest}), in batches of 10 events per window as the ingest path coalesces them. The state is
 * a fresh window for each batch so the figure does not depend on how full a window gets; intake (JSON parsing) is
 * left out: it is measured by {@code fanin bench}. Events per second per core = ops/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CoreThroughputBenchmark {

    private static final int BATCH = 10;

    private WindowMachine machine;
    private List<Event> events;
    private Instant now;

    @Setup
    public void setUp() {
        PipelineConfig config = BenchPipelines.load().pipeline("late-rollup").orElseThrow();
        machine = new WindowMachine(config, Duration.ofSeconds(30));
        now = Instant.parse("2026-11-29T00:00:30Z");
        events = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            ObjectNode payload = JsonNodeFactory.instance.objectNode().put("sensor", "s-1").put("value", i).put("id", "r-" + i);
            Instant time = now.minusMillis(1_000L * i);
            events.add(new Event("late-rollup", "s-1", "r-" + i, time, false, now, payload, payload, "m-" + i));
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Transition assignAccumulateDecide() {
        long t = events.get(0).eventTime().toEpochMilli();
        Interval window = WindowAssigner.assign(machine.config().window(), t).get(0);
        WindowState open = machine.open(new WindowRef("late-rollup", "s-1", WindowRef.timeWindowId(window.startMillis())), window, now);
        return machine.ingest(open, events, t - 10_000, now);
    }
}
