package dev.fanin.core.service;

import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.window.EventTimeMath;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One session key as a batch sees it: its live sessions (one consistent, versioned view, authoritative) and the
 * committed sessions its events may fall into or be clipped by. Committed sessions are read only for events before
 * the end of the latest committed one, and only around those events (their time plus the gap), so what a batch reads
 * is bounded by its events, never by how long the key has lived.
 */
final class KeySessions {

    private final LiveSessions live;
    private final Map<String, WindowState> liveStates = new LinkedHashMap<>();
    private final Map<String, StoredWindow> closed = new LinkedHashMap<>();
    private final Map<String, WindowState> closedStates = new LinkedHashMap<>();

    private KeySessions(LiveSessions live) {
        this.live = live;
    }

    /**
     * Reads the key's live sessions (as {@code reads} read them up front, for a first attempt) and the committed
     * sessions around {@code eventTimes}.
     */
    static KeySessions load(FaninEngine engine, BatchReads reads, String pipeline, String key, List<Long> eventTimes, Duration gap) {
        WindowStore store = engine.ports().store();
        KeySessions view = new KeySessions(reads.liveOr(key, () -> store.loadLive(pipeline, key)));
        view.live.sessions().forEach(s -> view.liveStates.put(s.ref().windowId(), engine.decode(s)));
        for (long[] range : rangesBefore(eventTimes, view.live.closedBefore(), gap.toMillis())) {
            for (StoredWindow w : store.closedSessions(pipeline, key, range[0], range[1])) {
                String id = w.ref().windowId();
                if (!view.liveStates.containsKey(id) && !view.closed.containsKey(id)) {
                    view.closed.put(id, w);
                    view.closedStates.put(id, engine.decode(w));
                }
            }
        }
        return view;
    }

    /**
     * The intervals {@code [t, t + gap)} of the events before {@code closedBefore}, merged where they overlap: where a
     * committed session may contain an event or clip its coverage.
     */
    static List<long[]> rangesBefore(List<Long> eventTimes, long closedBefore, long gapMillis) {
        List<Long> times = eventTimes.stream().filter(t -> t < closedBefore).sorted().distinct().toList();
        List<long[]> ranges = new ArrayList<>();
        for (long t : times) {
            long end = EventTimeMath.plus(t, gapMillis);
            long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && t < last[1]) {
                last[1] = Math.max(last[1], end);
            } else {
                ranges.add(new long[] {t, end});
            }
        }
        return ranges;
    }

    LiveSessions live() {
        return live;
    }

    /** The sessions the planner sees: live ones, the committed ones read, and the latest committed one. */
    List<SessionView> views(Duration gap, Instant now) {
        Map<String, SessionView> views = new LinkedHashMap<>();
        liveStates.values().forEach(s -> views.put(s.ref().windowId(), pastItsDeadline(s, now) ? cutAtItsDeadline(s, gap) : view(s, gap)));
        // A MERGED session (stored by a version before live sessions) holds nothing of its own any more.
        closedStates.values().stream().filter(s -> s.status() != WindowStatus.MERGED)
                .forEach(s -> views.put(s.ref().windowId(), view(s, gap)));
        SessionView last = live.lastClosed();
        if (last != null) {
            views.putIfAbsent(last.windowId(), last);
        }
        return List.copyOf(views.values());
    }

    private static SessionView view(WindowState s, Duration gap) {
        return new SessionView(s.ref().windowId(), s.bounds(), s.status(), s.cutUntil(gap));
    }

    /**
     * An accepting session past its hard deadline is cut there, whether or not its timer or a sweep has claimed it yet
     * (HARD_LIFETIME freezes it just after the last event it took): the plan sees it so, so that an on-time event after
     * that is not offered to it (final, it refused the event as too late) but opens the session that continues it, and
     * no bridge merges it (a merge would give its neighbours its passed deadline).
     */
    static boolean pastItsDeadline(WindowState s, Instant now) {
        return (s.status() == WindowStatus.OPEN || s.status() == WindowStatus.HELD) && !now.isBefore(s.hardDeadline())
                && s.lastTakenTime() != null;
    }

    private static SessionView cutAtItsDeadline(WindowState s, Duration gap) {
        long lastTaken = s.lastTakenTime().toEpochMilli();
        return new SessionView(s.ref().windowId(), s.bounds().endingJustAfter(lastTaken), WindowStatus.CLAIMED,
                EventTimeMath.plus(lastTaken, gap.toMillis()));
    }

    boolean isLive(String windowId) {
        return liveStates.containsKey(windowId);
    }

    /** A live session as decoded, or a committed one read for this batch. */
    WindowState state(String windowId) {
        WindowState s = liveStates.get(windowId);
        return s != null ? s : closedStates.get(windowId);
    }

    /** A committed session as stored (for its conditional write). */
    StoredWindow closedStored(String windowId) {
        return closed.get(windowId);
    }

    Map<String, WindowState> liveStates() {
        return liveStates;
    }
}
