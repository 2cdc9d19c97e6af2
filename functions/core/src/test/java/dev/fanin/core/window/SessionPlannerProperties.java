package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Session planning does not depend on how events arrive: one batch, any order, or one event per call (applying each
 * plan to the stored sessions in between) give the same sessions (bounds and members) and the same late events.
 */
class SessionPlannerProperties {

    @Property(tries = 500)
    void batchEqualsEventByEventInAnyOrder(@ForAll @Size(min = 1, max = 25) List<@LongRange(min = 1_000, max = 1_200) Long> times,
                                           @ForAll @IntRange(min = 1, max = 30) int gapMillis,
                                           @ForAll @Size(max = 3) List<@LongRange(min = 1_000, max = 1_200) Long> flushedStarts,
                                           @ForAll long shuffleSeed) {
        Duration gap = Duration.ofMillis(gapMillis);
        List<SessionView> flushed = new ArrayList<>();
        for (long start : new TreeSet<>(flushedStarts)) {
            flushed.add(new SessionView(WindowRef.sessionId(start), new Interval(start, start + gapMillis), WindowStatus.CLOSED));
        }

        Outcome batch = new Model(gap, flushed).applyInOneCall(times);

        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(shuffleSeed));
        Outcome oneByOne = new Model(gap, flushed).applyOneAtATime(times, order);

        assertThat(oneByOne.sessions()).isEqualTo(batch.sessions());
        assertThat(oneByOne.late()).isEqualTo(batch.late());
    }

    @Property(tries = 300)
    void singleCallResultIsIndependentOfEventOrder(@ForAll @Size(min = 1, max = 25) List<@LongRange(min = 0, max = 300) Long> times,
                                                   @ForAll @IntRange(min = 1, max = 30) int gapMillis,
                                                   @ForAll long shuffleSeed) {
        List<Long> shuffled = new ArrayList<>(times);
        Collections.shuffle(shuffled, new Random(shuffleSeed));

        SessionPlan a = SessionPlanner.plan(Duration.ofMillis(gapMillis), List.of(), times);
        SessionPlan b = SessionPlanner.plan(Duration.ofMillis(gapMillis), List.of(), shuffled);

        assertThat(b.sessions()).extracting(SessionPlan.Target::windowId, SessionPlan.Target::bounds)
                .isEqualTo(a.sessions().stream().map(t -> org.assertj.core.groups.Tuple.tuple(t.windowId(), t.bounds())).toList());
    }

    @Property(tries = 300)
    void resultingSessionsAreDisjointAndCoverTheirEvents(@ForAll @Size(min = 1, max = 25) List<@LongRange(min = 0, max = 300) Long> times,
                                                         @ForAll @IntRange(min = 1, max = 30) int gapMillis) {
        SessionPlan plan = SessionPlanner.plan(Duration.ofMillis(gapMillis), List.of(), times);

        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < plan.sessions().size(); i++) {
            SessionPlan.Target target = plan.sessions().get(i);
            long first = target.eventIndexes().stream().mapToLong(times::get).min().orElseThrow();
            long last = target.eventIndexes().stream().mapToLong(times::get).max().orElseThrow();
            assertThat(target.bounds()).isEqualTo(new Interval(first, last + gapMillis));
            for (int j = i + 1; j < plan.sessions().size(); j++) {
                assertThat(target.bounds().overlaps(plan.sessions().get(j).bounds())).isFalse();
            }
            for (int index : target.eventIndexes()) {
                assertThat(seen.add(index)).isTrue();
            }
        }
        assertThat(seen).hasSize(times.size());
    }

    @Property(tries = 300)
    void noEventIsPlannedIntoAnAcceptingSessionOverlappingAFlushedOne(
            @ForAll @Size(min = 1, max = 25) List<@LongRange(min = 1_000, max = 1_200) Long> times,
            @ForAll @IntRange(min = 1, max = 30) int gapMillis,
            @ForAll @Size(max = 4) List<@LongRange(min = 1_000, max = 1_200) Long> flushedStarts) {
        List<SessionView> flushed = new ArrayList<>();
        long previousEnd = Long.MIN_VALUE;
        for (long start : new TreeSet<>(flushedStarts)) {
            if (start >= previousEnd) {
                flushed.add(new SessionView(WindowRef.sessionId(start), new Interval(start, start + gapMillis), WindowStatus.CLOSED));
                previousEnd = start + gapMillis;
            }
        }

        SessionPlan plan = SessionPlanner.plan(Duration.ofMillis(gapMillis), flushed, times);

        for (SessionPlan.Target target : plan.sessions()) {
            for (SessionView f : flushed) {
                assertThat(target.bounds().overlaps(f.bounds())).as("%s overlaps flushed %s", target, f).isFalse();
            }
        }
        for (SessionPlan.FlushedTarget late : plan.flushed()) {
            SessionView f = flushed.stream().filter(v -> v.windowId().equals(late.windowId())).findFirst().orElseThrow();
            late.eventIndexes().forEach(i -> assertThat(f.bounds().contains(times.get(i))).isTrue());
        }
    }

    /** The resulting sessions as (bounds, event indexes), and the late events by flushed session id. */
    record Outcome(Map<Interval, Set<Integer>> sessions, Map<String, Set<Integer>> late) { }

    /** Stored sessions of one key, updated by applying plans as the state machine would. */
    private static final class Model {

        private final Duration gap;
        private final Map<String, SessionView> stored = new HashMap<>();
        private final Map<String, Set<Integer>> members = new HashMap<>();
        private final Map<String, Set<Integer>> late = new HashMap<>();

        Model(Duration gap, List<SessionView> flushed) {
            this.gap = gap;
            flushed.forEach(s -> stored.put(s.windowId(), s));
        }

        Outcome applyInOneCall(List<Long> times) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < times.size(); i++) {
                all.add(i);
            }
            apply(times, all);
            return outcome();
        }

        Outcome applyOneAtATime(List<Long> times, List<Integer> order) {
            for (int index : order) {
                apply(times, List.of(index));
            }
            return outcome();
        }

        /** Plans {@code indexes} (of {@code times}) against the stored sessions and applies the plan. */
        private void apply(List<Long> times, List<Integer> indexes) {
            List<Long> batch = indexes.stream().map(times::get).toList();
            SessionPlan plan = SessionPlanner.plan(gap, List.copyOf(stored.values()), batch);
            for (SessionPlan.Target target : plan.sessions()) {
                Set<Integer> survivorMembers = members.computeIfAbsent(target.windowId(), id -> new TreeSet<>());
                for (String absorbed : target.absorbed()) {
                    SessionView old = stored.get(absorbed);
                    stored.put(absorbed, new SessionView(absorbed, old.bounds(), WindowStatus.MERGED));
                    survivorMembers.addAll(members.remove(absorbed));
                }
                target.eventIndexes().forEach(i -> survivorMembers.add(indexes.get(i)));
                stored.put(target.windowId(), new SessionView(target.windowId(), target.bounds(), WindowStatus.OPEN));
            }
            for (SessionPlan.FlushedTarget flushed : plan.flushed()) {
                flushed.eventIndexes().forEach(i -> late.computeIfAbsent(flushed.windowId(), id -> new TreeSet<>()).add(indexes.get(i)));
            }
        }

        private Outcome outcome() {
            Map<Interval, Set<Integer>> sessions = new HashMap<>();
            members.forEach((id, indexes) -> sessions.put(stored.get(id).bounds(), indexes));
            return new Outcome(sessions, late);
        }
    }
}
