package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A window's kind is fixed when it opens: a pipeline whose window type changes (under the same name) still closes
 * every window opened before, once, however the sweeper or a timer reaches it (docs/CONFIGURATION.md, "Changing the
 * configuration with open windows").
 */
class WindowKindChangeTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{type: session, gap: 10m}  | {type: tumbling, size: 1m}",
            "{type: session, gap: 10m}  | '{type: sliding, size: 2m, slide: 1m}'",
            "{type: tumbling, size: 5m} | {type: session, gap: 1m}",
    })
    void aWindowOpenedBeforeATypeChangeClosesOnce(String before, String after) {
        FaninEngine old = InMemoryEngines.of(pipeline(before), store, emitter, new RecordingTimers(), clock);
        new IngestService(old).handle(List.of(InMemoryEngines.message("m1", InMemoryEngines.rawEvent("k", "e1", T0), T0, 1)));
        // The first sweep lists the window again under its own id, so later sweeps reach it by that id.
        clock.set(T0.plusSeconds(60));
        new SweepService(old).sweep(clock.instant().plusSeconds(50));
        assertThat(emitter.emitted()).isEmpty();

        FaninEngine changed = InMemoryEngines.reconfigured(old, pipeline(after));
        for (int minute = 0; minute < 60; minute++) {
            clock.advance(Duration.ofMinutes(1));
            new SweepService(changed).sweep(clock.instant().plusSeconds(50));
        }

        assertThat(emitter.emitted()).as("the window opened before the change").hasSize(1);
        assertThat(store.loadLive("p", "k").sessions()).as("no session left in the key's live item").isEmpty();
    }

    private static String pipeline(String window) {
        return InMemoryEngines.rawPipeline(window).replace("maxLifetime: 10m", "maxLifetime: 30m");
    }
}
