package dev.fanin.bench;

import dev.fanin.core.port.AggregateEmitter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Accepts every emission and records it with the simulated processing time it was sent at. */
final class TimedEmitter implements AggregateEmitter {

    record Emitted(Instant at, Request request) { }

    private final Clock clock;
    private final List<Emitted> emitted = new ArrayList<>();
    private long calls;

    TimedEmitter(Clock clock) {
        this.clock = clock;
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        calls++;
        List<Result> results = new ArrayList<>();
        for (Request r : requests) {
            emitted.add(new Emitted(clock.instant(), r));
            results.add(new Result(r.aggregateId(), true, null));
        }
        return results;
    }

    List<Emitted> emitted() {
        return List.copyOf(emitted);
    }

    /** PutEvents calls (up to 10 entries each in the EventBridge adapter; here one per flush round). */
    long calls() {
        return calls;
    }
}
