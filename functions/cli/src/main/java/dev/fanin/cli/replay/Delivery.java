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

    Delivery received(long nowMillis) {
        return new Delivery(messageId, body, attributes, sentAtMillis, visibleAtMillis, receiveCount + 1,
                firstReceiveMillis == 0 ? nowMillis : firstReceiveMillis, duplicate);
    }

    Delivery visibleAt(long millis) {
        return new Delivery(messageId, body, attributes, sentAtMillis, millis, receiveCount, firstReceiveMillis, duplicate);
    }

    Delivery asDuplicate(long visibleAtMillis) {
        return new Delivery(messageId, body, attributes, sentAtMillis, visibleAtMillis, receiveCount, firstReceiveMillis, true);
    }
}
