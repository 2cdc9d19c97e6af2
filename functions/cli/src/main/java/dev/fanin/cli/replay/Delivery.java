package dev.fanin.cli.replay;

import java.util.Map;

/**
 * A message in the simulated input queue: a trace message waiting for (re)delivery. Times are epoch milliseconds
 * of the simulated clock (the state file stores them as numbers).
 *
 * @param visibleAtMillis      earliest delivery time: the arrival, or when a failed or redelivered message
 *                             becomes visible again
 * @param receiveCount         deliveries so far
 * @param firstReceiveMillis   the first delivery time, 0 before it
 * @param duplicate            an at-least-once duplicate injected by {@code --redeliver}, never duplicated again
 */
record Delivery(String messageId, String body, Map<String, String> attributes, long sentAtMillis, long visibleAtMillis,
                int receiveCount, long firstReceiveMillis, boolean duplicate) {

    Delivery {
        attributes = Map.copyOf(attributes);
    }

    static Delivery of(TraceMessage m) {
        long at = m.at().toEpochMilli();
        return new Delivery(m.messageId(), m.body(), m.attributes(), at, at, 0, 0, false);
    }

    /**
     * Handed to the function in a batch. The event source's poller received it as it became visible and held it for
     * the batching window, so its first receive is its visible time, not the invocation's: the core counts only the
     * wait before the first receive as queue backlog, and a batching window longer than {@code outOfOrderness} would
     * otherwise look like one at every batch (the deployed functions close those windows within seconds).
     */
    Delivery received() {
        return new Delivery(messageId, body, attributes, sentAtMillis, visibleAtMillis, receiveCount + 1,
                firstReceiveMillis == 0 ? visibleAtMillis : firstReceiveMillis, duplicate);
    }

    Delivery visibleAt(long millis) {
        return new Delivery(messageId, body, attributes, sentAtMillis, millis, receiveCount, firstReceiveMillis, duplicate);
    }

    Delivery asDuplicate(long visibleAtMillis) {
        return new Delivery(messageId, body, attributes, sentAtMillis, visibleAtMillis, receiveCount, firstReceiveMillis, true);
    }
}
