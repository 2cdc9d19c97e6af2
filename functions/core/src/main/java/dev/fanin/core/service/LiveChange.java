package dev.fanin.core.service;

import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A change to one key's live sessions, built up by a batch, a visit or a commit and written as one conditional
 * replace ({@link WindowWrites#writeLive}): the sessions after it, the transitions that made them (for their
 * follow-ups), and the sessions that left the item, absorbed by a merge or committed into an item of their own.
 */
final class LiveChange {

    private final LiveSessions loaded;
    private final Map<String, WindowState> states;
    private final Map<String, StoredWindow> next = new TreeMap<>();
    private final Map<String, Transition> transitions = new LinkedHashMap<>();
    private final Set<String> created = new TreeSet<>();
    private final List<WindowState> absorbed = new ArrayList<>();
    private final List<WindowState> committed = new ArrayList<>();
    private SessionView lastClosed;
    private final Map<String, Instant> tooLate;
    private boolean tooLateAdded;

    /**
     * @param states the loaded sessions, decoded, by id
     * @param now    when the change is decided: the too-late verdicts whose time has come leave with its write
     */
    LiveChange(LiveSessions loaded, Map<String, WindowState> states, Instant now) {
        this.loaded = loaded;
        this.states = new TreeMap<>(states);
        this.lastClosed = loaded.lastClosed();
        this.tooLate = new HashMap<>(loaded.tooLate());
        tooLate.values().removeIf(t -> !t.isAfter(now));
        loaded.sessions().forEach(s -> next.put(s.ref().windowId(), s));
    }

    /** A session created or changed by {@code t}. */
    void put(Transition t, boolean isNew) {
        String id = t.next().ref().windowId();
        states.put(id, t.next());
        next.put(id, WindowCodec.encode(t.next()));
        transitions.put(id, t);
        if (isNew) {
            created.add(id);
        }
    }

    /** A session absorbed by a merge: it leaves the item, its events now counted by the survivor. */
    void absorb(String windowId) {
        WindowState state = remove(windowId);
        if (state != null) {
            absorbed.add(state);
        }
    }

    /**
     * A session whose commit has been written to its own item: it leaves, and raises {@link LiveSessions#lastClosed}
     * if it ends later.
     *
     * @param committedState the session as its own item now holds it (frozen bounds)
     */
    void commit(String windowId, WindowState committedState, Duration gap) {
        WindowState state = remove(windowId);
        if (state != null) {
            committed.add(state);
        }
        if (lastClosed == null || committedState.bounds().endMillis() > lastClosed.bounds().endMillis()) {
            lastClosed = new SessionView(windowId, committedState.bounds(), WindowStatus.CLOSED, committedState.cutUntil(gap));
        }
    }

    /**
     * A too-late verdict no session keeps ({@link LiveSessions#tooLate}), to be forgotten at {@code forgetAt}. The item
     * keeps at most {@link LiveSessions#MAX_TOO_LATE}: past it, those forgotten soonest go first.
     *
     * @return how many verdicts went before their time to make room
     */
    int recordTooLate(String marked, Instant forgetAt) {
        tooLateAdded |= tooLate.put(marked, forgetAt) == null;
        int dropped = 0;
        while (tooLate.size() > LiveSessions.MAX_TOO_LATE) {
            tooLate.entrySet().stream().min(Map.Entry.comparingByValue()).ifPresent(e -> tooLate.remove(e.getKey()));
            dropped++;
        }
        return dropped;
    }

    private WindowState remove(String windowId) {
        next.remove(windowId);
        transitions.remove(windowId);
        created.remove(windowId);
        return states.remove(windowId);
    }

    boolean changed() {
        return !transitions.isEmpty() || !absorbed.isEmpty() || !committed.isEmpty() || tooLateAdded;
    }

    /** The item after the change (its version is the loaded one: the store writes the next). */
    LiveSessions build() {
        Instant expiresAt = Stream.concat(next.values().stream().map(StoredWindow::expiresAt), tooLate.values().stream())
                .reduce(loaded.expiresAt(), (a, b) -> b.isAfter(a) ? b : a);
        return new LiveSessions(loaded.pipeline(), loaded.key(), loaded.version(), List.copyOf(next.values()), lastClosed, tooLate,
                expiresAt);
    }

    LiveSessions loaded() {
        return loaded;
    }

    /** The live sessions after the change, decoded. */
    Collection<WindowState> states() {
        return states.values();
    }

    WindowState state(String windowId) {
        return states.get(windowId);
    }

    Collection<Transition> transitions() {
        return transitions.values();
    }

    /** Whether this change creates or changes the session (a transition of it is in the change). */
    boolean changes(String windowId) {
        return transitions.containsKey(windowId);
    }

    boolean isCreated(String windowId) {
        return created.contains(windowId);
    }

    List<WindowState> absorbed() {
        return absorbed;
    }

    List<WindowState> committed() {
        return committed;
    }

    /** The session as loaded, or null for one this change creates. */
    StoredWindow loadedSession(String windowId) {
        return loaded.session(windowId).orElse(null);
    }

    /** UTF-8 bytes of a session's encoded state after the change: its stored size before compression, or more. */
    long stateBytes(String windowId) {
        StoredWindow w = next.get(windowId);
        return w == null ? 0 : w.state().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    int size() {
        return next.size();
    }
}
