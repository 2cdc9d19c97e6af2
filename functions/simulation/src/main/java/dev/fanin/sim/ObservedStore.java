package dev.fanin.sim;

import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sits directly on the real store and reports every applied write to the {@link CommitLedger}: what the store really
 * did, whatever happens to the worker afterwards.
 */
public final class ObservedStore extends ForwardingWindowStore {

    private final CommitLedger ledger;

    public ObservedStore(WindowStore inner, CommitLedger ledger) {
        super(inner);
        this.ledger = ledger;
    }



    @Override
    public WriteOutcome create(StoredWindow window) {
        WriteOutcome r = super.create(window);
        if (r.applied()) {
            ledger.written(null, window);
        }
        return r;
    }

    @Override
    public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
        WriteOutcome r = super.replace(previous, next);
        if (r.applied()) {
            ledger.written(previous, next);
        }
        return r;
    }

    @Override
    public WriteOutcome replaceAll(List<StoredWindow> previous, List<StoredWindow> next) {
        WriteOutcome r = super.replaceAll(new ArrayList<>(previous), new ArrayList<>(next));
        if (r.applied()) {
            for (int i = 0; i < next.size(); i++) {
                ledger.written(previous.get(i), next.get(i));
            }
        }
        return r;
    }








}
