package dev.fanin.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/** Splits a list into consecutive batches bounded by an entry count and a total size, keeping order. */
public final class Batches {

    private Batches() { }

    /**
     * Every item lands in exactly one batch, in order. An item larger than {@code maxBytes} on its own gets a batch
     * of its own (the caller decides whether to send it; the service will refuse it).
     */
    public static <T> List<List<T>> of(List<T> items, int maxCount, long maxBytes, ToLongFunction<T> size) {
        List<List<T>> batches = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long currentBytes = 0;
        for (T item : items) {
            long bytes = size.applyAsLong(item);
            if (!current.isEmpty() && (current.size() == maxCount || currentBytes + bytes > maxBytes)) {
                batches.add(current);
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(item);
            currentBytes += bytes;
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }
}
