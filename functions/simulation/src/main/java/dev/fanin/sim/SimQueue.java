package dev.fanin.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * An SQS standard queue: at-least-once, unordered (a receive picks visible messages at random), per-message delay,
 * visibility timeout, receive count, and redrive to a dead-letter queue once a message has been received
 * {@code maxReceiveCount} times without being deleted. Times are the simulation's true processing time (ms).
 *
 * @param <T> the message payload
 */
public final class SimQueue<T> {

    /** One delivery of a message: what a consumer sees. */
    public record Delivery<T>(String messageId, T payload, long sentAt, int receiveCount) { }

    private static final class Entry<T> {
        final String id;
        final T payload;
        final long sentAt;
        int receiveCount;
        long visibleAt;
        int receipt;

        Entry(String id, T payload, long sentAt, long visibleAt) {
            this.id = id;
            this.payload = payload;
            this.sentAt = sentAt;
            this.visibleAt = visibleAt;
        }
    }

    private record Wake<T>(Entry<T> entry, int receipt, long at) { }

    private final long visibilityTimeoutMillis;
    private final int maxReceiveCount;
    private final BiConsumer<String, T> redrive;
    private final Map<String, Entry<T>> messages = new HashMap<>();
    private final PriorityQueue<Wake<T>> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
    private final List<Entry<T>> ready = new ArrayList<>();
    private long redriven;
    private long redeliveries;

    /**
     * @param redrive called with the message id and payload of a message moved to the dead-letter queue
     */
    public SimQueue(long visibilityTimeoutMillis, int maxReceiveCount, BiConsumer<String, T> redrive) {
        this.visibilityTimeoutMillis = visibilityTimeoutMillis;
        this.maxReceiveCount = maxReceiveCount;
        this.redrive = redrive;
    }

    public void send(String id, T payload, long now, long delayMillis) {
        if (messages.containsKey(id)) {
            throw new IllegalArgumentException("message id reused: " + id);
        }
        Entry<T> e = new Entry<>(id, payload, now, now + Math.max(0, delayMillis));
        messages.put(id, e);
        waiting.add(new Wake<>(e, e.receipt, e.visibleAt));
    }

    /** Up to {@code max} visible messages, picked at random; each becomes invisible for the visibility timeout. */
    public List<Delivery<T>> receive(int max, long now, Random random) {
        promote(now);
        List<Delivery<T>> out = new ArrayList<>();
        while (out.size() < max && !ready.isEmpty()) {
            int i = random.nextInt(ready.size());
            Entry<T> e = ready.get(i);
            ready.set(i, ready.get(ready.size() - 1));
            ready.remove(ready.size() - 1);
            if (messages.get(e.id) != e) {
                continue;
            }
            Delivery<T> d = deliver(e, now);
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * As {@link #receive(int, long, Random)}, but only messages whose payload matches {@code wanted} (the simulation's
     * way to make two workers handle one key at once). A scan of the visible messages: for interleavings only.
     */
    public List<Delivery<T>> receive(int max, long now, Random random, Predicate<T> wanted) {
        promote(now);
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < ready.size(); i++) {
            if (messages.get(ready.get(i).id) == ready.get(i) && wanted.test(ready.get(i).payload)) {
                candidates.add(i);
            }
        }
        Collections.shuffle(candidates, random);
        List<Integer> picked = new ArrayList<>(candidates.subList(0, Math.min(max, candidates.size())));
        picked.sort(Collections.reverseOrder());
        List<Entry<T>> entries = new ArrayList<>();
        for (int i : picked) {
            entries.add(ready.get(i));
            ready.set(i, ready.get(ready.size() - 1));
            ready.remove(ready.size() - 1);
        }
        List<Delivery<T>> out = new ArrayList<>();
        for (Entry<T> e : entries) {
            Delivery<T> d = deliver(e, now);
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }

    /** Hands out one message, or redrives it when it has been received too often. */
    private Delivery<T> deliver(Entry<T> e, long now) {
        if (e.receiveCount >= maxReceiveCount) {
            messages.remove(e.id);
            redriven++;
            redrive.accept(e.id, e.payload);
            return null;
        }
        if (e.receiveCount > 0) {
            redeliveries++;
        }
        e.receiveCount++;
        e.receipt++;
        e.visibleAt = now + visibilityTimeoutMillis;
        waiting.add(new Wake<>(e, e.receipt, e.visibleAt));
        return new Delivery<>(e.id, e.payload, e.sentAt, e.receiveCount);
    }

    /** Deletes a received message (its processing succeeded). */
    public void delete(String id) {
        messages.remove(id);
    }

    public boolean hasVisible(long now) {
        promote(now);
        // Trim superseded entries from the end only until a live one shows: receive skips the others. (Removing them
        // all here made draining a queue with many visible messages quadratic.)
        while (!ready.isEmpty()) {
            Entry<T> last = ready.get(ready.size() - 1);
            if (messages.get(last.id) == last) {
                return true;
            }
            ready.remove(ready.size() - 1);
        }
        return false;
    }

    /** The earliest time a message becomes visible, or {@link Long#MAX_VALUE} when none is waiting. */
    public long nextVisibleAt() {
        while (!waiting.isEmpty() && stale(waiting.peek())) {
            waiting.poll();
        }
        return waiting.isEmpty() ? Long.MAX_VALUE : waiting.peek().at;
    }

    /** The payload of a message still in the queue (visible or in flight), or null. */
    public T payload(String id) {
        Entry<T> e = messages.get(id);
        return e == null ? null : e.payload;
    }

    /** How often a message still in the queue has been received, or -1 when it is gone (deleted). */
    public int receiveCount(String id) {
        Entry<T> e = messages.get(id);
        return e == null ? -1 : e.receiveCount;
    }

    public int size() {
        return messages.size();
    }

    public long redriven() {
        return redriven;
    }

    public long redeliveries() {
        return redeliveries;
    }

    private void promote(long now) {
        while (!waiting.isEmpty() && waiting.peek().at <= now) {
            Wake<T> w = waiting.poll();
            if (!stale(w)) {
                ready.add(w.entry);
            }
        }
    }

    private boolean stale(Wake<T> w) {
        return messages.get(w.entry.id) != w.entry || w.entry.receipt != w.receipt;
    }
}
