package dev.fanin.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.aws.eventbridge.EventBridgeEmitter;
import dev.fanin.core.port.AggregateEmitter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Accepts every emission and records it with the simulated processing time it was sent at, and the {@code PutEvents}
 * calls the EventBridge adapter would make for it: up to {@link EventBridgeEmitter#MAX_ENTRIES_PER_CALL} entries a
 * call (the aggregates here are a few KB, far below a call's 256 KB).
 */
final class TimedEmitter implements AggregateEmitter {

    record Emitted(Instant at, Request request) { }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock;
    private final List<Emitted> emitted = new ArrayList<>();
    private long calls;
    private long correctionCalls;

    TimedEmitter(Clock clock) {
        this.clock = clock;
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        long corrections = requests.stream().filter(TimedEmitter::corrects).count();
        long made = callsFor(requests.size());
        calls += made;
        // What the later revisions add: the calls beyond those the first revisions alone would take.
        correctionCalls += made - callsFor(requests.size() - corrections);
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

    /** PutEvents calls, as the EventBridge adapter splits each emission round. */
    long calls() {
        return calls;
    }

    /** Of {@link #calls}, those only the later revisions (corrections) take. */
    long correctionCalls() {
        return correctionCalls;
    }

    /** The PutEvents calls that send {@code entries}. */
    static long callsFor(long entries) {
        int max = EventBridgeEmitter.MAX_ENTRIES_PER_CALL;
        return (entries + max - 1) / max;
    }

    /** Whether the aggregate is a later revision: it names the revision it corrects (as {@link CloseLatency} tells them). */
    static boolean corrects(Request request) {
        try {
            return JSON.readTree(request.detailJson()).path("corrects").isTextual();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
