package dev.fanin.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * How the SQS event source groups visible messages into one invocation, on the simulated clock: the batch starts
 * with the earliest visible message, takes the messages visible within the batching window after it (in visibility
 * order) up to the batch size, and is handed over when it is full (at the time its last member became visible) or
 * when the window ends. With a window of 0 a batch is the messages visible at the same instant, up to the size. The
 * input queue's mapping and the timer queue's work alike, each with the template's size and window: the bench's timer
 * queue ({@link SimTimers}) and {@code fanin replay}'s two queues take their batches from here.
 */
public final class EventSourceBatches {

    /** One invocation's messages and when it happens. */
    public record Batch<T>(long atMillis, List<T> deliveries) {
        public Batch {
            deliveries = List.copyOf(deliveries);
        }
    }

    private EventSourceBatches() {
    }

    /**
     * @param pending   the queue's messages, in any order
     * @param visibleAt when a message becomes visible
     */
    public static <T> Optional<Batch<T>> next(List<T> pending, ToLongFunction<T> visibleAt, int batchSize, long windowMillis) {
        if (pending.isEmpty()) {
            return Optional.empty();
        }
        List<T> byVisibility = new ArrayList<>(pending);
        byVisibility.sort(Comparator.comparingLong(visibleAt));
        long windowEnd = visibleAt.applyAsLong(byVisibility.get(0)) + windowMillis;
        List<T> members = new ArrayList<>();
        for (T d : byVisibility) {
            if (members.size() == batchSize || visibleAt.applyAsLong(d) > windowEnd) {
                break;
            }
            members.add(d);
        }
        long at = members.size() == batchSize ? visibleAt.applyAsLong(members.get(members.size() - 1)) : windowEnd;
        return Optional.of(new Batch<>(at, members));
    }
}
