package dev.fanin.bench;

import dev.fanin.aws.sqs.SqsWindowTimers;
import dev.fanin.core.port.WindowTimers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Timer messages as {@link SqsWindowTimers} sends them: delivered {@code delaySeconds(dueAt, now)} whole seconds
 * after arming (at most 900 s; the timer service re-arms a timer that arrives early). With delivery off, timers
 * are counted and dropped: the sweeper alone closes windows.
 */
final class SimTimers implements WindowTimers {

    record Pending(Wakeup wakeup, Instant deliverAt) { }

    private final boolean deliver;
    private final PriorityQueue<Pending> pending = new PriorityQueue<>(Comparator.comparing(Pending::deliverAt));
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

    /** As {@link dev.fanin.aws.sqs.SqsWindowTimers#armAll}: one SendMessageBatch request per ten timers. */
    @Override
    public List<Wakeup> armAll(List<Wakeup> wakeups, Instant now) {
        sendRequests += (wakeups.size() + SqsWindowTimers.MAX_BATCH - 1) / SqsWindowTimers.MAX_BATCH;
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

    /** Delivery time of the next timer, or null. */
    Instant next() {
        Pending first = pending.peek();
        return first == null ? null : first.deliverAt();
    }

    /**
     * When the timer queue's event source invokes the function next, or null: it starts a batch with the earliest
     * visible message and hands it over once it holds {@code shape.size()} messages (when the last of them became
     * visible) or when {@code shape.window()} has passed since the first, as for the input queue.
     */
    Instant nextBatchAt(Simulation.BatchShape shape) {
        Pending first = pending.peek();
        if (first == null) {
            return null;
        }
        Instant windowEnd = first.deliverAt().plus(shape.window());
        List<Pending> members = new ArrayList<>();
        while (members.size() < shape.size() && !pending.isEmpty() && !pending.peek().deliverAt().isAfter(windowEnd)) {
            members.add(pending.poll());
        }
        pending.addAll(members);
        return members.size() == shape.size() ? members.get(members.size() - 1).deliverAt() : windowEnd;
    }

    /** The batch {@link #nextBatchAt} timed at {@code at}: up to {@code size} messages visible by then, earliest first. */
    List<Pending> takeBatch(Instant at, int size) {
        List<Pending> batch = new ArrayList<>();
        while (batch.size() < size && !pending.isEmpty() && !pending.peek().deliverAt().isAfter(at)) {
            batch.add(pending.poll());
        }
        delivered += batch.size();
        return batch;
    }

    long armed() {
        return armed;
    }

    long delivered() {
        return delivered;
    }
}
