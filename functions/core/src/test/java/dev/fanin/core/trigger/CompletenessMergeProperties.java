package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.CompletenessMergeTest.SHARDS;
import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Merging two sessions' completeness knows what one session observing all their events knows: the same expected
 * count, members, seen count, sentinel and verdict, whichever way the events were split (one count for the whole
 * job, carried by some events only; members in and out of range; a sentinel now and then).
 */
class CompletenessMergeProperties {

    /** A job: its count, and its events, each with a member (some out of range), maybe the count, maybe the sentinel. */
    @Provide
    Arbitrary<List<Event>> job() {
        return Arbitraries.integers().between(1, 6).flatMap(of -> {
            Arbitrary<String> payload = Combinators.combine(
                            Arbitraries.integers().between(-1, of + 2),
                            Arbitraries.of(true, false),
                            Arbitraries.integers().between(0, 9))
                    .as((member, carriesCount, roll) -> "{\"shard\":" + member + (carriesCount ? ",\"of\":" + of : "")
                            + (roll == 0 ? ",\"type\":\"done\"" : "") + "}");
            return payload.list().ofMinSize(1).ofMaxSize(10).map(payloads -> {
                List<Event> events = new ArrayList<>();
                for (int i = 0; i < payloads.size(); i++) {
                    events.add(event("e" + i, i, payloads.get(i)));
                }
                return events;
            });
        });
    }

    private static Completeness observe(List<Event> events) {
        Completeness c = Completeness.initial(SHARDS);
        for (Event e : events) {
            c = c.observe(SHARDS, e);
        }
        return c;
    }

    @Property
    void mergingTwoSessionsKnowsWhatOneSessionOfAllTheirEventsKnows(@ForAll("job") List<Event> events, @ForAll long splitSeed) {
        List<Event> left = new ArrayList<>();
        List<Event> right = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            ((splitSeed >>> (i % 64) & 1) == 0 ? left : right).add(events.get(i));
        }

        Completeness merged = observe(left).mergedWith(observe(right));
        Completeness whole = observe(events);

        assertThat(merged.expected()).isEqualTo(whole.expected());
        assertThat(merged.members()).isEqualTo(whole.members());
        assertThat(merged.seen()).isEqualTo(whole.seen());
        assertThat(merged.sentinelSeen()).isEqualTo(whole.sentinelSeen());
        assertThat(merged.conflicts()).isEqualTo(whole.conflicts());
        assertThat(merged.isComplete()).isEqualTo(whole.isComplete());
        assertThat(merged.missingCount()).isEqualTo(whole.missingCount());
        assertThat(merged.missingMembers()).isEqualTo(whole.missingMembers());
    }
}
