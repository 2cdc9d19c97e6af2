package dev.fanin.cli.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * How the SQS event source groups visible messages into one invocation, on the simulated clock: the batch starts
 * with the earliest visible message, takes the messages visible within the batching window after it (in visibility
 * order) up to the batch size, and is handed over when it is full (at the time its last member became visible) or
 * when the window ends. With a window of 0 a batch is the messages visible at the same instant, up to the size.
 */
final class EventSourceBatches {

    /** One invocation's messages and when it happens. */
    record Batch(long atMillis, List<Delivery> deliveries) {
        Batch {
            deliveries = List.copyOf(deliveries);
        }
    }

    private EventSourceBatches() {
    }

    /** @param pending the queue's messages, in any order */
    static Optional<Batch> next(List<Delivery> pending, int batchSize, long windowMillis) {
        if (pending.isEmpty()) {
            return Optional.empty();
        }
        List<Delivery> byVisibility = new ArrayList<>(pending);
        byVisibility.sort(Comparator.comparingLong(Delivery::visibleAtMillis));
        long first = byVisibility.get(0).visibleAtMillis();
        long windowEnd = first + windowMillis;
        List<Delivery> members = new ArrayList<>();
        for (Delivery d : byVisibility) {
            if (members.size() == batchSize || d.visibleAtMillis() > windowEnd) {
                break;
            }
            members.add(d);
        }
        long at = members.size() == batchSize ? members.get(members.size() - 1).visibleAtMillis() : windowEnd;
        return Optional.of(new Batch(at, members));
    }
}
