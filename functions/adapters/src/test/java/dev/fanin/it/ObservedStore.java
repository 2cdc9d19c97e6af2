package dev.fanin.it;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A {@link WindowStore} decorator for one simulated process: it records every applied window write into a history
 * shared by all processes of a test (the truth about the table), and it can kill the process with a
 * {@link SimulatedCrash} just before or just after a write that matches a rule. Each rule fires once.
 */
final class ObservedStore implements WindowStore {

    enum Phase { BEFORE, AFTER }

    /** One window write: {@code previous} is null for a create. */
    record Write(StoredWindow previous, StoredWindow next) {

        WindowRef ref() {
            return next.ref();
        }

        /** The write that claims a revision: the window becomes CLAIMED from a status that was not. */
        boolean isClaim() {
            return next.status() == WindowStatus.CLAIMED && (previous == null || previous.status() != WindowStatus.CLAIMED);
        }

        /** A takeover of an expired claim: still CLAIMED, with a new fence. */
        boolean isTakeover() {
            return previous != null && previous.status() == WindowStatus.CLAIMED && next.status() == WindowStatus.CLAIMED
                    && next.fence() > previous.fence();
        }

        /** The commit of a claimed revision. */
        boolean isCommit() {
            return previous != null && previous.status() == WindowStatus.CLAIMED && next.status() != WindowStatus.CLAIMED;
        }
    }

    private record Rule(Phase phase, String name, Predicate<Write> when, AtomicBoolean fired) { }

    private final WindowStore delegate;
    private final List<Write> history;
    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    ObservedStore(WindowStore delegate, List<Write> history) {
        this.delegate = delegate;
        this.history = history;
    }

    /** Kills the process once, {@code phase} the first write matching {@code when}. */
    ObservedStore crashOnce(Phase phase, String name, Predicate<Write> when) {
        rules.add(new Rule(phase, name, when, new AtomicBoolean()));
        return this;
    }

    @Override
    public Optional<StoredWindow> load(WindowRef ref) {
        return delegate.load(ref);
    }

    @Override
    public List<StoredWindow> loadKey(String pipeline, String key) {
        return delegate.loadKey(pipeline, key);
    }

    @Override
    public WriteOutcome create(StoredWindow window, int maxOpenWindows) {
        Write write = new Write(null, window);
        check(Phase.BEFORE, write);
        WriteOutcome outcome = delegate.create(window, maxOpenWindows);
        return applied(write, outcome);
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        Write write = new Write(previous, next);
        check(Phase.BEFORE, write);
        WriteOutcome outcome = delegate.replace(previous, next);
        return applied(write, outcome);
    }

    @Override
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        for (int i = 0; i < previous.size(); i++) {
            check(Phase.BEFORE, new Write(previous.get(i), next.get(i)));
        }
        WriteOutcome outcome = delegate.replaceAll(previous, next);
        if (outcome.applied()) {
            for (int i = 0; i < previous.size(); i++) {
                history.add(new Write(previous.get(i), next.get(i)));
            }
            for (int i = 0; i < previous.size(); i++) {
                check(Phase.AFTER, new Write(previous.get(i), next.get(i)));
            }
        }
        return outcome;
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

    @Override
    public DuePage due(String pipeline, int shard, Instant dueBy, int limit, String cursor) {
        return delegate.due(pipeline, shard, dueBy, limit, cursor);
    }

    @Override
    public int dueShards() {
        return delegate.dueShards();
    }

    @Override
    public long openWindows(String pipeline) {
        return delegate.openWindows(pipeline);
    }
}
