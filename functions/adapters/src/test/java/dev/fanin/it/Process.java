package dev.fanin.it;

import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepReport;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** One simulated Lambda container: an engine over fresh adapters, the services, and its fault hooks. */
record Process(FaninEngine engine, ObservedStore store, ObservedEmitter emitter) {

    IngestService ingest() {
        return new IngestService(engine);
    }

    TimerService timers() {
        return new TimerService(engine);
    }

    /** One sweeper run with a minute of (simulated) time to spare, on as many threads as the settings ask. */
    SweepReport sweep() {
        int threads = engine.settings().sweepParallelism();
        if (threads == 1) {
            return new SweepService(engine).sweep(engine.clock().instant().plusSeconds(60));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            return new SweepService(engine, pool).sweep(engine.clock().instant().plusSeconds(60));
        } finally {
            pool.shutdownNow();
        }
    }
}
