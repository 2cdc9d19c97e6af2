package dev.fanin.it;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link WindowStore} decorator for one simulated process: it records every applied window write into a history
 * shared by all processes of a test (the truth about the table), and it can kill the process with a
 * {@link SimulatedCrash} just before or just after a write that matches a rule. Each rule fires once.
 */
final class ObservedStore extends ForwardingWindowStore {

    enum Phase { BEFORE, AFTER }

    /**
     * One window write, with both sides decoded: {@code previous} is null for a create. A single write can be several
     * steps at once (a commit that claims the due correction right away is both a commit and a claim).
     */
    record Write(StoredWindow previous, StoredWindow next, WindowState before, WindowState after) {

        WindowRef ref() {
            return next.ref();
        }

        /** Claims a revision: the window becomes CLAIMED for a revision it was not claimed for. */
        boolean isClaim() {
            return after.status() == WindowStatus.CLAIMED && (before == null || before.status() != WindowStatus.CLAIMED
                    || before.claim().revision() != after.claim().revision());
        }

        /** Takes over an expired claim: the same revision stays claimed, under a new fence. */
        boolean isTakeover() {
            return before != null && before.status() == WindowStatus.CLAIMED && after.status() == WindowStatus.CLAIMED
                    && before.claim().revision() == after.claim().revision() && after.fence() > before.fence();
        }

        /** Commits a claimed revision. */
        boolean isCommit() {
            return before != null && after.committedRevision() > before.committedRevision();
        }

        /** Whether the revision this write commits was dead-lettered (HOLD policy) rather than emitted. */
        boolean committedDeadLettered() {
            return before.claim().deadLetter();
        }

        /** The aggregate id of the revision this write commits; only for {@link #isCommit()}. */
        String committedAggregateId() {
            return before.claim().aggregateId();
        }
    }

    private record Rule(Phase phase, String name, Predicate<Write> when, AtomicBoolean fired) { }

    private final Function<StoredWindow, WindowState> decode;
    private final List<Write> history;
    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    ObservedStore(WindowStore delegate, Function<StoredWindow, WindowState> decode, List<Write> history) {
        super(delegate);
        this.decode = decode;
        this.history = history;
    }

    /** Kills the process once, {@code phase} the first write matching {@code when}. */
    ObservedStore crashOnce(Phase phase, String name, Predicate<Write> when) {
        rules.add(new Rule(phase, name, when, new AtomicBoolean()));
        return this;
    }



    /**
     * A create after earlier writes of the same window is a session's committer writing its own item: it pairs with
     * the session's last live copy, so that its commit is seen as one.
     */
    @Override
    public WriteOutcome create(StoredWindow window) {
        Write write = write(lastWritten(window.ref()), window);
        check(Phase.BEFORE, write);
        WriteOutcome outcome = super.create(window);
        return applied(write, outcome);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        Write write = write(previous, next);
        check(Phase.BEFORE, write);
        WriteOutcome outcome = super.replace(previous, next);
        return applied(write, outcome);
    }

    /** A key's live write is one write of each session it changes (a session that leaves is written elsewhere or merged). */
    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        List<Write> changed = new ArrayList<>();
        for (StoredWindow session : next.sessions()) {
            StoredWindow before = previous.session(session.ref().windowId()).orElse(null);
            if (!session.equals(before)) {
                changed.add(write(before, session));
            }
        }
        changed.forEach(w -> check(Phase.BEFORE, w));
        WriteOutcome outcome = super.replaceLive(previous, next);
        if (outcome.applied()) {
            history.addAll(changed);
            changed.forEach(w -> check(Phase.AFTER, w));
        }
        return outcome;
    }

    private StoredWindow lastWritten(WindowRef ref) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).ref().equals(ref)) {
                return history.get(i).next();
            }
        }
        return null;
    }

    private Write write(StoredWindow previous, StoredWindow next) {
        return new Write(previous, next, previous == null ? null : decode.apply(previous), decode.apply(next));
    }

    private WriteOutcome applied(Write write, WriteOutcome outcome) {
        if (outcome.applied()) {
            history.add(write);
            check(Phase.AFTER, write);
        }
        return outcome;
    }

    private void check(Phase phase, Write write) {
        for (Rule rule : rules) {
            if (rule.phase() == phase && !rule.fired().get() && rule.when().test(write) && rule.fired().compareAndSet(false, true)) {
                throw new SimulatedCrash(phase.name().toLowerCase() + " " + rule.name() + " of " + write.ref());
            }
        }
    }








}
