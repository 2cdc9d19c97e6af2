package dev.fanin.it;

import dev.fanin.testkit.AggregateSchema;
import dev.fanin.core.port.AggregateEmitter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * An {@link AggregateEmitter} decorator for one simulated process: checks every emission the real emitter
 * reported sent against the shipped schema and records it (into a history shared by the test's processes), and can kill the process once right after the
 * real emitter sent a matching aggregate, so that the aggregate is out but nothing after it ran.
 */
final class ObservedEmitter implements AggregateEmitter {

    private final AggregateEmitter delegate;
    private final List<Request> sent;
    private final List<Predicate<Request>> crashAfterSend = new CopyOnWriteArrayList<>();
    private final AtomicBoolean crashed = new AtomicBoolean();
    private final List<Runnable> beforeNextEmit = new CopyOnWriteArrayList<>();

    ObservedEmitter(AggregateEmitter delegate, List<Request> sent) {
        this.delegate = delegate;
        this.sent = sent;
    }

    /** Kills the process once, after the real emitter has sent an aggregate matching {@code when}. */
    ObservedEmitter crashOnceAfterSending(Predicate<Request> when) {
        crashAfterSend.add(when);
        return this;
    }

    /**
     * Runs {@code pause} once, inside the next emit call and before anything is sent: the process is "paused"
     * between its claim and its emission while the test lets the world move on (the lease ends, another process
     * takes over).
     */
    ObservedEmitter pauseBeforeNextEmit(Runnable pause) {
        beforeNextEmit.add(pause);
        return this;
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        for (Runnable pause : List.copyOf(beforeNextEmit)) {
            beforeNextEmit.remove(pause);
            pause.run();
        }
        List<Result> results = delegate.emit(requests);
        boolean crash = false;
        for (int i = 0; i < requests.size(); i++) {
            if (results.get(i).sent()) {
                Request r = requests.get(i);
                AggregateSchema.assertValid(r.detailJson());
                sent.add(r);
                crash |= crashAfterSend.stream().anyMatch(p -> p.test(r));
            }
        }
        if (crash && crashed.compareAndSet(false, true)) {
            throw new SimulatedCrash("after emitting " + requests.size() + " aggregate(s)");
        }
        return results;
    }
}
