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

    List<Pending> takeDue(Instant now) {
        List<Pending> due = new ArrayList<>();
        while (!pending.isEmpty() && !pending.peek().deliverAt().isAfter(now)) {
            due.add(pending.poll());
        }
        delivered += due.size();
        return due;
    }

    long armed() {
        return armed;
    }

    long delivered() {
        return delivered;
    }
}
