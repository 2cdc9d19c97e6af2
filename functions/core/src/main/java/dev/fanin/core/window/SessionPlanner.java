package dev.fanin.core.window;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans how a batch of event times joins, extends, creates and merges the session windows of one key. Pure.
 *
 * <p>Rules (docs/SEMANTICS.md, "Session windows"):
 * <ol>
 *   <li>An event at {@code t} covers the half-open interval {@code [t, t + gap)}; a session's bounds are
 *       {@code [first event time, last event time + gap)}.</li>
 *   <li>Exact gap: intervals that only touch do not overlap, so an event exactly {@code gap} after a session's last
 *       event (at its end) starts a new session, and an event exactly {@code gap} before its first event (ending at
 *       its start) does too.</li>
 *   <li>A flushed session (CLAIMED or CLOSED) has frozen bounds: an event whose time lies inside them is late for
 *       that session, never a bridge, and goes to {@link SessionPlan#flushed()}. (Should legacy sessions overlap,
 *       the earliest-starting one takes it, ties by id.) This rule looks only at flushed sessions, which a batch never
 *       changes, so it is order-independent.</li>
 *   <li>Any other event's coverage is clipped at the start of the next flushed session, so no accepting session ever
 *       grows into a flushed one.</li>
 *   <li>The other events and the accepting sessions (OPEN, HELD) form connected groups of overlapping intervals; each
 *       group that contains an event becomes one session, spanning the group. Its id is the smallest existing id in
 *       the group (the others are absorbed), or a new id from the group's earliest event; a new session that starts
 *       before the gap of a session cut short has ended continues it ({@link SessionView#continuedBy}).</li>
 * </ol>
 * Bounds and the grouping of events do not depend on the order of {@code eventTimes} nor on how they are split
 * across calls (SessionPlannerProperties). The ids of new sessions do: a session keeps the id it was created with.
 */
public final class SessionPlanner {

    private SessionPlanner() {
    }

    /**
     * @param gap        the inactivity gap, at least 1 ms
     * @param existing   the key's stored sessions, any order; MERGED ones are ignored
     * @param eventTimes event times in epoch ms, any order, duplicates allowed
     */
    public static SessionPlan plan(Duration gap, List<SessionView> existing, List<Long> eventTimes) {
        if (gap == null || gap.toMillis() <= 0) {
            throw new IllegalArgumentException("session gap must be at least 1 ms, got " + gap);
        }
        long gapMillis = gap.toMillis();
        List<SessionView> flushedSessions = existing.stream()
                .filter(SessionView::isFlushed)
                .sorted(Comparator.comparingLong((SessionView s) -> s.bounds().startMillis()).thenComparing(SessionView::windowId))
                .toList();

        Map<String, List<Integer>> toFlushed = new TreeMap<>();
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < eventTimes.size(); i++) {
            long t = eventTimes.get(i);
            String flushedId = containing(flushedSessions, t);
            if (flushedId != null) {
                toFlushed.computeIfAbsent(flushedId, id -> new ArrayList<>()).add(i);
            } else {
                members.add(Member.event(coverage(t, gapMillis, flushedSessions), i));
            }
        }
        for (SessionView session : existing) {
            if (session.acceptsEvents()) {
                members.add(Member.session(session));
            }
        }

        List<SessionPlan.Target> targets = new ArrayList<>();
        for (List<Member> group : connectedGroups(members)) {
            addTarget(group, flushedSessions, targets);
        }
        List<SessionPlan.FlushedTarget> flushed = new ArrayList<>();
        toFlushed.forEach((id, indexes) -> flushed.add(new SessionPlan.FlushedTarget(id, indexes)));
        return new SessionPlan(targets, flushed);
    }

    /** The members in groups of connected (overlapping) intervals, ordered by start. */
    private static List<List<Member>> connectedGroups(List<Member> members) {
        List<Member> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.comparingLong((Member m) -> m.bounds().startMillis()));
        List<List<Member>> groups = new ArrayList<>();
        List<Member> group = new ArrayList<>();
        long groupEnd = Long.MIN_VALUE;
        for (Member member : sorted) {
            if (!group.isEmpty() && member.bounds().startMillis() >= groupEnd) {
                groups.add(group);
                group = new ArrayList<>();
            }
            group.add(member);
            groupEnd = group.size() == 1 ? member.bounds().endMillis() : Math.max(groupEnd, member.bounds().endMillis());
        }
        if (!group.isEmpty()) {
            groups.add(group);
        }
        return groups;
    }

    /** {@code [t, t + gap)}, clipped at the start of the first flushed session after {@code t}. */
    private static Interval coverage(long t, long gapMillis, List<SessionView> sortedFlushed) {
        long end = t + gapMillis;
        if (end < t) {
            throw new IllegalArgumentException("event time " + t + " is too late: its session would end after the largest time");
        }
        for (SessionView session : sortedFlushed) {
            if (session.bounds().startMillis() > t) {
                end = Math.min(end, session.bounds().startMillis());
                break;
            }
        }
        return new Interval(t, end);
    }

    private static String containing(List<SessionView> sortedFlushed, long t) {
        for (SessionView session : sortedFlushed) {
            if (session.bounds().contains(t)) {
                return session.windowId();
            }
        }
        return null;
    }

    /** Turns one connected group into a target, unless it holds no event (then nothing about it changes). */
    private static void addTarget(List<Member> group, List<SessionView> sortedFlushed, List<SessionPlan.Target> targets) {
        List<Integer> eventIndexes = new ArrayList<>();
        List<String> sessionIds = new ArrayList<>();
        Interval bounds = null;
        long earliestEvent = Long.MAX_VALUE;
        for (Member member : group) {
            bounds = bounds == null ? member.bounds() : bounds.span(member.bounds());
            if (member.isEvent()) {
                eventIndexes.add(member.eventIndex());
                earliestEvent = Math.min(earliestEvent, member.bounds().startMillis());
            } else {
                sessionIds.add(member.sessionId());
            }
        }
        if (eventIndexes.isEmpty()) {
            return;
        }
        eventIndexes.sort(null);
        sessionIds.sort(null);
        if (!sessionIds.isEmpty()) {
            targets.add(new SessionPlan.Target(sessionIds.get(0), false, bounds, sessionIds.subList(1, sessionIds.size()), eventIndexes));
            return;
        }
        targets.add(new SessionPlan.Target(WindowRef.sessionId(earliestEvent), true, bounds, List.of(), eventIndexes,
                continued(sortedFlushed, bounds.startMillis())));
    }

    /** The latest-starting session cut short that a new session starting at {@code start} continues, or null. */
    private static String continued(List<SessionView> sortedFlushed, long start) {
        String continued = null;
        for (SessionView session : sortedFlushed) {
            if (session.continuedBy(start)) {
                continued = session.windowId();
            }
        }
        return continued;
    }

    /** An interval taking part in the grouping: either a new event's coverage or an accepting session. */
    private record Member(Interval bounds, int eventIndex, String sessionId) {

        static Member event(Interval covered, int index) {
            return new Member(covered, index, null);
        }

        static Member session(SessionView session) {
            return new Member(session.bounds(), -1, session.windowId());
        }

        boolean isEvent() {
            return sessionId == null;
        }
    }
}
