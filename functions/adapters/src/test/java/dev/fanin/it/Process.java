package dev.fanin.it;

import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.IngestService;
import dev.fanin.core.service.SweepReport;
import dev.fanin.core.service.SweepService;
import dev.fanin.core.service.TimerService;

/** One simulated Lambda container: an engine over fresh adapters, the services, and its fault hooks. */
record Process(FaninEngine engine, ObservedStore store, ObservedEmitter emitter) {

    IngestService ingest() {
        return new IngestService(engine);
    }

    TimerService timers() {
        return new TimerService(engine);
    }

    /** One sweeper run with a minute of (simulated) time to spare. */
    SweepReport sweep() {
        return new SweepService(engine).sweep(engine.clock().instant().plusSeconds(60));
    }
}
