package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.TestClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch of up to 10,000 messages (the template's largest IngestBatchSize) all for one window: the store keeps room in
 * an item for about 2,500 new event-id digests a write (SizeBudget.STORE_RESERVE_BYTES), so the ingest writes such a
 * window in slices; every event is still counted once.
 */
class LargeBatchWritesTest {

    private final TestClock clock = new TestClock(Instant.parse("2026-11-29T10:00:30Z"));
    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);
    private final List<Integer> newIdsPerWrite = new ArrayList<>();
    private final RecordingEmitter emitter = new RecordingEmitter();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"{type: tumbling, size: 1h}", "{type: session, gap: 1h}"})
    void aWindowTakesABatchOf10000EventsInWritesOfAt2000NewIdsAndCountsEachOnce(String window) {
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline(window, "3h", "{outOfOrderness: 1h, idleAfter: 2h}",
                "    bounds: {maxEventsPerWindow: 20000}\n    aggregations: [{name: n, type: count}]\n"), recording(memory), emitter,
                new RecordingTimers(), clock);
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            batch.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, clock.instant().minusSeconds(i % 30)),
                    clock.instant(), 1));
        }

        BatchResult result = new IngestService(engine).handle(batch);

        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(result.eventsAccepted()).isEqualTo(10_000);
        assertThat(newIdsPerWrite).as("new ids per write of the window").hasSize(5).allMatch(n -> n == IngestService.MOST_EVENTS_PER_WRITE);
        assertThat(new IngestService(engine).handle(batch.subList(0, 2_000)).duplicates()).as("each counted once").isEqualTo(2_000);
    }

    @Test
    void aBatchOfAtMost2000EventsForAWindowIsStillOneWrite() {
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1h}", "3h",
                "{outOfOrderness: 1h, idleAfter: 2h}", ""), recording(memory), emitter, new RecordingTimers(), clock);
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            batch.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, clock.instant()), clock.instant(), 1));
        }

        new IngestService(engine).handle(batch);

        assertThat(newIdsPerWrite).containsExactly(2_000);
    }

    /** The store, recording how many ids each window write adds (a live item's: over its sessions). */
    private WindowStore recording(InMemoryWindowStore inner) {
        return (WindowStore) Proxy.newProxyInstance(WindowStore.class.getClassLoader(), new Class<?>[] {WindowStore.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "create" -> newIdsPerWrite.add(((StoredWindow) args[0]).eventIds().size());
                        case "replace" -> newIdsPerWrite.add(added(List.of((StoredWindow) args[0]), List.of((StoredWindow) args[1])));
                        case "replaceLive" -> newIdsPerWrite.add(added(((LiveSessions) args[0]).sessions(), ((LiveSessions) args[1]).sessions()));
                        default -> { }
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static int added(List<StoredWindow> before, List<StoredWindow> after) {
        Set<String> ids = new HashSet<>();
        after.forEach(w -> ids.addAll(w.eventIds()));
        before.forEach(w -> ids.removeAll(w.eventIds()));
        return ids.size();
    }

    /**
     * Slices in event-time order: a session cut at its size bound by the first slice leaves the batch's later on-time
     * events to the session that continues it, as one write would (a review: sliced in arrival order, 1,488 on-time
     * events of a shuffled batch became late corrections of the cut session).
     */
    @Test
    void aSessionCutShortByTheFirstSliceLeavesNoOnTimeEventLate() {
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: session, gap: 1h}", "3h",
                "{outOfOrderness: 1h, idleAfter: 2h}", "    allowedLateness: 1h\n    bounds: {maxEventsPerWindow: 1500}\n"),
                memory, emitter, new RecordingTimers(), clock);
        List<InboundMessage> batch = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            long shuffled = (i * 7919L % 4_000) * 500; // event times over 2,000 s, out of order
            batch.add(InMemoryEngines.message("m" + i, InMemoryEngines.rawEvent("k", "e" + i, clock.instant().minusMillis(shuffled)),
                    clock.instant(), 1));
        }

        BatchResult result = new IngestService(engine).handle(batch);

        assertThat(result.late()).isZero();
        assertThat(result.eventsAccepted() + result.failedMessageIds().size()).isEqualTo(4_000);
    }
}
