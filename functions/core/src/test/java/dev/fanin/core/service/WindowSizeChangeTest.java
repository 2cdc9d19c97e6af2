package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.emit.AggregateEvent;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A new tumbling size assigns new events to new windows, also where a new window starts where a window opened before
 * the change started (every day's first hour, and the day, start at midnight): each keeps its own bounds and events
 * and fires once (docs/CONFIGURATION.md, "Changing the configuration with open windows").
 */
class WindowSizeChangeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant MIDNIGHT = Instant.parse("2026-11-29T00:00:00Z");

    private final TestClock clock = new TestClock(MIDNIGHT.plus(Duration.ofMinutes(10)));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    /** The functions as configured now: each call of {@link #engine} changes the configuration of the same ports. */
    private FaninEngine running;

    @ParameterizedTest(name = "{0} -> {1} at {2}")
    @CsvSource({
            "1h, 1d, PT15H",
            "1d, 1h, PT30M",
            "1h, 2h, PT50M",
    })
    void windowsOfBothSizesStartingAtTheSameTimeKeepTheirOwnEvents(String before, String after, Duration changedAfterMidnight) {
        FaninEngine old = engine(before);
        ingest(old, "e-before");
        sweepUntil(old, MIDNIGHT.plus(changedAfterMidnight));

        FaninEngine changed = engine(after);
        BatchResult r = ingest(changed, "e-after");
        assertThat(r.eventsAccepted()).as("on time in its new window").isEqualTo(1);
        assertThat(((RecordingSideOutput) running.ports().sideOutput()).sideRecords()).isEmpty();
        sweepUntil(changed, MIDNIGHT.plus(Duration.ofHours(25)));

        Map<Interval, Long> seenByWindow = emitter.emitted().stream()
                .map(e -> AggregateEvent.fromJson(read(e.detailJson())))
                .collect(Collectors.toMap(AggregateEvent::bounds, AggregateEvent::seen));
        assertThat(seenByWindow).as("each window fired once, with its own event").containsExactlyInAnyOrderEntriesOf(Map.of(
                window(MIDNIGHT, before), 1L,
                window(MIDNIGHT, after), 1L));
    }

    /** Listed with its batch, once the invocation is surely over, as any window a batch opens (DueCoverage). */
    @org.junit.jupiter.api.Test
    void aWindowUnderItsOwnIdIsListedWithItsBatch() {
        ingest(engine("1h"), "e-before");
        clock.set(MIDNIGHT.plus(Duration.ofMinutes(50)));

        ingest(engine("2h"), "e-after");

        String own = WindowRef.timeWindowId(MIDNIGHT.toEpochMilli(), MIDNIGHT.plus(Duration.ofHours(2)).toEpochMilli());
        Instant listedAt = clock.instant().plus(running.settings().ingestTimeout()).plus(DueCoverage.IN_FLIGHT_MARGIN);
        assertThat(store.dueBuckets()).filteredOn(b -> b.entries().stream().anyMatch(r -> r.windowId().equals(own)))
                .singleElement().satisfies(b -> assertThat(b.dueAt()).isEqualTo(listedAt));
    }

    private BatchResult ingest(FaninEngine engine, String eventId) {
        Instant now = clock.instant();
        return new IngestService(engine).handle(List.of(InMemoryEngines.message("m-" + eventId, InMemoryEngines.rawEvent("k", eventId, now), now, 1)));
    }

    private void sweepUntil(FaninEngine engine, Instant until) {
        while (clock.instant().isBefore(until)) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        }
    }

    private FaninEngine engine(String size) {
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: " + size + "}").replace("maxLifetime: 10m", "maxLifetime: 2d");
        running = running == null ? InMemoryEngines.of(yaml, store, emitter, new RecordingTimers(), clock) : InMemoryEngines.reconfigured(running, yaml);
        return running;
    }

    private static Interval window(Instant start, String size) {
        Duration length = size.endsWith("d") ? Duration.ofDays(Long.parseLong(size.replace("d", "")))
                : Duration.ofHours(Long.parseLong(size.replace("h", "")));
        return new Interval(start.toEpochMilli(), start.plus(length).toEpochMilli());
    }

    private static com.fasterxml.jackson.databind.JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
