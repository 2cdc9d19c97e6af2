package dev.fanin.cli.replay;

/**
 * A timer message read from the timer queue, delivered to the timer function at {@code deliverAtMillis} of the
 * simulated clock: its due time, or 15 minutes after it was sent when it is due later (SQS's longest delay; the
 * timer function then re-arms, as in AWS).
 */
record TimerDelivery(String messageId, String body, long deliverAtMillis, int receiveCount) {

    TimerDelivery received() {
        return new TimerDelivery(messageId, body, deliverAtMillis, receiveCount + 1);
    }

    TimerDelivery visibleAt(long millis) {
        return new TimerDelivery(messageId, body, millis, receiveCount);
    }
}
