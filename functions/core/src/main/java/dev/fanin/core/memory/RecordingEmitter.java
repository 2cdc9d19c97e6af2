package dev.fanin.core.memory;

import dev.fanin.core.port.AggregateEmitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An {@link AggregateEmitter} that keeps every emission in order (replay output, simulation and tests), after a check
 * of each aggregate's JSON (the tests pass the schema's; a failing check fails the emission's caller).
 */
public final class RecordingEmitter implements AggregateEmitter {

    private final List<Request> emitted = new ArrayList<>();
    private final Consumer<String> check;

    public RecordingEmitter() {
        this(json -> { });
    }

    public RecordingEmitter(Consumer<String> check) {
        this.check = Objects.requireNonNull(check, "check");
    }

    @Override
    public synchronized List<Result> emit(List<Request> requests) {
        List<Result> results = new ArrayList<>();
        for (Request r : requests) {
            check.accept(r.detailJson());
            emitted.add(r);
            results.add(new Result(r.aggregateId(), true, null));
        }
        return results;
    }

    public synchronized List<Request> emitted() {
        return List.copyOf(emitted);
    }
}
