package dev.fanin.core.machine;

import java.time.Instant;
import java.util.Objects;

/**
 * Who steps a window. Only a write that happens anyway replaces a stored due time already past; only a message of the
 * window's live timer chain continues the chain (see {@link TimerChain}).
 */
public sealed interface Visitor {

    /** The sweeper, which found the window in a due bucket. */
    Visitor SWEEP = Untimed.SWEEP;
    /** Ingest and commits. */
    Visitor WRITER = Untimed.WRITER;

    /** A timer message of the chain {@code chain}, armed for {@code dueAt}. */
    static Visitor timer(long chain, Instant dueAt) {
        return new Timer(chain, dueAt);
    }

    /** The visitors that are not timer messages. */
    enum Untimed implements Visitor { SWEEP, WRITER }

    /** A timer message: the chain it belongs to and the due time it was armed for. */
    record Timer(long chain, Instant dueAt) implements Visitor {
        public Timer {
            Objects.requireNonNull(dueAt, "dueAt");
        }

        /**
         * Whether this message belongs to {@code live}, the window's chain. A message without an id (chain 0, armed
         * before chains had ids) belongs to it if it was armed for the time stored, to the millisecond the store
         * keeps.
         */
        boolean continues(TimerChain live) {
            return live != null && live.id() == chain && (chain != 0 || dueAt.toEpochMilli() == live.armedFor().toEpochMilli());
        }
    }
}
