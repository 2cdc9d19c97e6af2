package dev.fanin.bench;

import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.port.WindowTimers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Timer messages as {@link SqsWindowTimers} sends them: delivered {@code delaySeconds(dueAt, now)} whole seconds
 * after arming (at most 900 s; the timer service re-arms a timer that arrives early). With delivery off, timers
 * are counted and dropped: the sweeper alone closes windows.
 */
final class SimTimers implements WindowTimers {

    record Pending(Wakeup wakeup, Instant deliverAt) { }

    private final boolean deliver;
    /** In the order they were armed; {@link EventSourceBatches} orders them by delivery time. */
    private final List<Pending> pending = new ArrayList<>();
    private long armed;
    private long sendRequests;
    private long delivered;

    SimTimers(boolean deliver) {
        this.deliver = deliver;
    }

    @Override
    public void arm(Wakeup wakeup, Instant now) {
        armAll(List.of(wakeup), now);
    }

    /** As {@link dev.fanin.aws.sqs.SqsWindowTimers#armAll}: one SendMessageBatch request per ten timers ({@link SqsRequests}). */
    @Override
    public List<Wakeup> armAll(List<Wakeup> wakeups, Instant now) {
        sendRequests += SqsRequests.of(wakeups.size());
        for (Wakeup w : wakeups) {
            armed++;
            if (deliver) {
                pending.add(new Pending(w, now.plusSeconds(SqsWindowTimers.delaySeconds(w.dueAt(), now))));
            }
        }
        return List.of();
    }

    /** SQS send requests made to arm the timers. */
    long sendRequests() {
        return sendRequests;
    }

    /** Whether any timer is still to be delivered. */
    boolean anyPending() {
        return !pending.isEmpty();
    }

    /** The timer queue's next invocation, as its event source forms it from the timers visible by then, or empty. */
    Optional<EventSourceBatches.Batch<Pending>> nextBatch(Simulation.BatchShape shape) {
        return EventSourceBatches.next(pending, p -> p.deliverAt().toEpochMilli(), shape.size(), shape.window().toMillis());
    }

    /** Delivers {@code batch}: its timers leave the queue. */
    List<Pending> take(EventSourceBatches.Batch<Pending> batch) {
        Set<Pending> taken = Collections.newSetFromMap(new IdentityHashMap<>());
        taken.addAll(batch.deliveries());
        pending.removeIf(taken::contains);
        delivered += batch.deliveries().size();
        return batch.deliveries();
    }

    long armed() {
        return armed;
    }

    long delivered() {
        return delivered;
    }
}
