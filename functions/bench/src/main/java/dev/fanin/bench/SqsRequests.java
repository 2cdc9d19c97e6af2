package dev.fanin.bench;

import java.util.List;

/**
 * The one rule for what SQS bills to move messages, used by every SQS figure of the bench (fanin's input and timer
 * queues, the baselines' input queue): a {@code ReceiveMessage} returns at most 10 messages, and
 * {@code SendMessageBatch} and {@code DeleteMessageBatch} take at most 10 entries, so n messages take at least
 * ceil(n / 10) requests of each kind. An event source mapping hands a function a batch of n messages after at least
 * ceil(n / 10) receives and deletes them in ceil(n / 10) batch deletes: at least, because a poller that gathers a
 * batch over its batching window may receive it in more, smaller, receives. (SQS bills a request per 64 KB of its
 * payload; ten of the bench's messages fit in one.)
 */
final class SqsRequests {

    /** The most messages one receive returns, or one batch send or batch delete takes. */
    static final int MAX_MESSAGES = 10;

    private SqsRequests() { }

    /** The requests that send, receive or delete {@code messages}, ten at a time. */
    static long of(long messages) {
        return (messages + MAX_MESSAGES - 1) / MAX_MESSAGES;
    }

    /** What an event source mapping's batch of {@code messages} costs: its receives and its batch deletes. */
    static long receiveAndDelete(long messages) {
        return 2 * of(messages);
    }

    /** The receives and deletes of every batch. */
    static long receiveAndDelete(List<? extends List<?>> batches) {
        return batches.stream().mapToLong(b -> receiveAndDelete(b.size())).sum();
    }
}
