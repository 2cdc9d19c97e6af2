package dev.fanin.core.memory;

import dev.fanin.core.port.AggregateEmitter;
import java.util.ArrayList;
import java.util.List;

/** An {@link AggregateEmitter} that keeps every emission in order (replay output, simulation and tests). */
public final class RecordingEmitter implements AggregateEmitter {

    private final List<Request> emitted = new ArrayList<>();

    @Override
    public synchronized List<Result> emit(List<Request> requests) {
        List<Result> results = new ArrayList<>();
        for (Request r : requests) {
            emitted.add(r);
            results.add(new Result(r.aggregateId(), true, null));
        }
        return results;
    }

    public synchronized List<Request> emitted() {
        return List.copyOf(emitted);
    }
}
