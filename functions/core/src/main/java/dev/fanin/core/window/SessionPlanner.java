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
 *   <li>An event whose interval overlaps a flushed session (CLAIMED or CLOSED) is late for that session, never a
 *       bridge: it goes to {@link SessionPlan#flushed()}. With several, it goes to the earliest-starting one (ties by
 *       id). This rule looks only at flushed sessions, which a batch never changes, so it is order-independent.</li>
 *   <li>The other events and the accepting sessions (OPEN, HELD) form connected groups of overlapping intervals; each
 *       group that contains an event becomes one session, spanning the group. Its id is the smallest existing id in
 *       the group (the others are absorbed), or a new id from the group's earliest event.</li>
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
            Interval covered = coverage(t, gapMillis);
            String flushedId = firstOverlapping(flushedSessions, covered);
            if (flushedId != null) {
                toFlushed.computeIfAbsent(flushedId, id -> new ArrayList<>()).add(i);
            } else {
                members.add(Member.event(covered, i));
            }
        }
        for (SessionView session : existing) {
            if (session.acceptsEvents()) {
                members.add(Member.session(session));
            }
        }

        List<SessionPlan.Target> targets = new ArrayList<>();
        members.sort(Comparator.comparingLong((Member m) -> m.bounds().startMillis()));
        List<Member> group = new ArrayList<>();
        long groupEnd = Long.MIN_VALUE;
        for (Member member : members) {
            if (!group.isEmpty() && member.bounds().startMillis() >= groupEnd) {
                addTarget(group, targets);
                group = new ArrayList<>();
            }
            group.add(member);
            groupEnd = group.size() == 1 ? member.bounds().endMillis() : Math.max(groupEnd, member.bounds().endMillis());
        }
        addTarget(group, targets);

        List<SessionPlan.FlushedTarget> flushed = new ArrayList<>();
        toFlushed.forEach((id, indexes) -> flushed.add(new SessionPlan.FlushedTarget(id, indexes)));
        return new SessionPlan(targets, flushed);
    }

    private static Interval coverage(long t, long gapMillis) {
        long end = t + gapMillis;
        if (end < t) {
            throw new IllegalArgumentException("event time " + t + " is too late: its session would end after the largest time");
        }
        return new Interval(t, end);
    }

    private static String firstOverlapping(List<SessionView> sortedFlushed, Interval covered) {
        for (SessionView session : sortedFlushed) {
            if (session.bounds().overlaps(covered)) {
                return session.windowId();
            }
        }
        return null;
    }

    /** Turns one connected group into a target, unless it holds no event (then nothing about it changes). */
    private static void addTarget(List<Member> group, List<SessionPlan.Target> targets) {
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
        boolean created = sessionIds.isEmpty();
        String survivor = created ? WindowRef.sessionId(earliestEvent) : sessionIds.get(0);
        List<String> absorbed = created ? List.of() : sessionIds.subList(1, sessionIds.size());
        targets.add(new SessionPlan.Target(survivor, created, bounds, absorbed, eventIndexes));
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
