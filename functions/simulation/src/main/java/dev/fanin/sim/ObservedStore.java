package dev.fanin.sim;

import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;

/**
 * Sits directly on the real store and reports every applied write to the {@link CommitLedger}: what the store really
 * did, whatever happens to the worker afterwards.
 */
public final class ObservedStore extends ForwardingWindowStore {

    private final WindowStore inner;
    private final CommitLedger ledger;

    public ObservedStore(WindowStore inner, CommitLedger ledger) {
        super(inner);
        this.inner = inner;
        this.ledger = ledger;
    }



    /** A create of a session that is live is its committer writing its own item: it pairs with the live copy. */
    @Override
    public WriteOutcome create(StoredWindow window) {
        StoredWindow live = live(window.ref());
        WriteOutcome r = super.create(window);
        if (r.applied()) {
            ledger.written(live, window);
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

    /**
     * A key's live write is a write of each session it changes; a session it drops was committed into its own item
     * (written before) or absorbed by a merge (it has no item of its own).
     */
    @Override
    public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
        WriteOutcome r = super.replaceLive(previous, next);
        if (r.applied()) {
            for (StoredWindow session : next.sessions()) {
                StoredWindow before = previous.session(session.ref().windowId()).orElse(null);
                if (!session.equals(before)) {
                    ledger.written(before, session);
                }
            }
            for (StoredWindow session : previous.sessions()) {
                if (next.session(session.ref().windowId()).isEmpty() && inner.load(session.ref()).isEmpty()) {
                    ledger.merged(session.ref());
                }
            }
        }
        return r;
    }

    private StoredWindow live(WindowRef ref) {
        return inner.loadLive(ref.pipeline(), ref.key()).session(ref.windowId()).orElse(null);
    }
}
