package dev.fanin.core.service;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The read-decide-write loop of every conditional write: an attempt reads, lets the machine decide and writes under
 * the version it read; when another writer got there first it reads again and decides afresh, at most
 * {@code conflictRetries} more times. Written once here; the attempts differ only in what they read and write.
 */
final class Conflicts {

    private Conflicts() {
    }

    /**
     * @param attempt one read, decision and write: its result, or empty when the write lost to another writer
     * @return the first attempt's result that did not lose, or empty when every attempt lost
     */
    static <T> Optional<T> retry(int conflictRetries, Supplier<Optional<T>> attempt) {
        return retry(conflictRetries, () -> { }, attempt);
    }

    /**
     * As {@link #retry(int, Supplier)}, running {@code again} before each attempt after the first: a retry (of an
     * ingest step or a visit) decides at its own time, so a claim it writes holds a lease counted from that write.
     */
    static <T> Optional<T> retry(int conflictRetries, Runnable again, Supplier<Optional<T>> attempt) {
        for (int i = 0; i <= conflictRetries; i++) {
            if (i > 0) {
                again.run();
            }
            Optional<T> result = attempt.get();
            if (result.isPresent()) {
                return result;
            }
        }
        return Optional.empty();
    }
}
