package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A window an ingest batch claims (here: closed by its count) holds a lease counted from its write, and is emitted
 * before half of it is gone, not only at the end of the batch: a batch slower than the lease would otherwise have its
 * claims taken over (by a sweep, a timer or another batch) and emitted twice.
 */
class IngestClaimLeaseTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant EVENT_TIME = NOW.minusSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestClock clock = new TestClock(NOW);
    private final Map<String, Instant> claimedAt = new LinkedHashMap<>();
    private final Map<String, StoredWindow> written = new LinkedHashMap<>();
    private final Map<String, Instant> emittedAt = new LinkedHashMap<>();

    @Test
    void aSlowBatchEmitsEachClaimWithinItsLease() {
        // Each window write takes 20 s: the batch runs 60 s, twice the 30 s lease.
        WindowStore slowStore = InMemoryEngines.slowCreates(clock, window -> {
            claimedAt.put(window.ref().key(), clock.instant());
            written.put(window.ref().key(), window);
            return Duration.ofSeconds(20);
        });
        RecordingEmitter recording = new RecordingEmitter(AggregateSchema::assertValid);
        AggregateEmitter timed = requests -> {
            requests.forEach(r -> emittedAt.put(key(r.detailJson()), clock.instant()));
            return recording.emit(requests);
        };
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 5m}")
                .replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m, count: 1}");
        FaninEngine engine = InMemoryEngines.of(yaml, slowStore, timed, new RecordingTimers(), clock);

        BatchResult r = new IngestService(engine).handle(List.of("a", "b", "c").stream()
                .map(k -> InMemoryEngines.message("m-" + k, InMemoryEngines.rawEvent(k, "e-" + k, EVENT_TIME), NOW, 1))
                .toList());

        assertThat(r.eventsAccepted()).isEqualTo(3);
        assertThat(emittedAt).containsOnlyKeys("a", "b", "c");
        Duration lease = engine.settings().lease();
        emittedAt.forEach((key, at) -> {
            Instant leaseEnd = engine.decode(written.get(key)).leaseUntil();
            assertThat(leaseEnd).as("the lease of " + key + " counts from its write").isEqualTo(claimedAt.get(key).plus(lease));
            assertThat(at).as("emission of " + key).isBefore(leaseEnd);
        });
        assertThat(recording.emitted()).hasSize(3);
    }

    /** A step that lost its first write to another writer decides again at its retry's time, its claim's lease too. */
    @Test
    void aClaimWrittenOnARetryHoldsALeaseFromTheRetry() {
        boolean[] lost = {false};
        WindowStore losingOnce = new ForwardingWindowStore(new InMemoryWindowStore(4)) {
            @Override
            public WriteOutcome create(StoredWindow window) {
                if (!lost[0]) {
                    lost[0] = true;
                    clock.advance(Duration.ofSeconds(20));
                    return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 1);
                }
                claimedAt.put(window.ref().key(), clock.instant());
                written.put(window.ref().key(), window);
                return super.create(window);
            }
        };
        String yaml = InMemoryEngines.rawPipeline("{type: tumbling, size: 5m}")
                .replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m, count: 1}");
        FaninEngine engine = InMemoryEngines.of(yaml, losingOnce, new RecordingEmitter(AggregateSchema::assertValid), new RecordingTimers(), clock);

        BatchResult r = new IngestService(engine).handle(List.of(InMemoryEngines.message("m-a", InMemoryEngines.rawEvent("a", "e-a", EVENT_TIME), NOW, 1)));

        assertThat(r.eventsAccepted()).isEqualTo(1);
        assertThat(engine.decode(written.get("a")).leaseUntil()).as("counted from the retry, 20 s after the step began")
                .isEqualTo(claimedAt.get("a").plus(engine.settings().lease()))
                .isEqualTo(NOW.plusSeconds(20).plus(engine.settings().lease()));
    }

    private static String key(String detailJson) {
        try {
            return JSON.readTree(detailJson).path("key").asText();
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
