package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.testkit.TestClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A longer {@code late.correctionDelay} published after a window fired (docs/CONFIGURATION.md, "Changing the
 * configuration with open windows"). The window's items expire at a time fixed when it opened, with the delay then in
 * force; its pending correction must still be emitted before they do, and waits the new delay where that fits.
 *
 * <p>The window: tumbling minute [T0, T0+1m) of key k, opened at T0 with a 10-minute lifetime (hard deadline T0+10m),
 * allowedLateness 30m, correctionDelay 1m and a 2h retention (maxPast 1h): its items expire at T0 + 10m + 30m + 1m +
 * lease + 2h = T0+2h41m30s. The sweeper runs every 5 minutes and the store deletes what has expired before each run.
 */
class CorrectionDelayChangeTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PIPELINE = InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "10m",
                    "{outOfOrderness: 0s, idleAfter: 5m}",
                    "    allowedLateness: 30m\n    late: {tooLate: side-output, correctionDelay: 1m}\n    retention: 2h\n")
            .replace("eventTime: {path: $.t}", "eventTime: {path: $.t, maxPast: 1h, maxFuture: 1m}");

    private final TestClock clock = new TestClock(T0);
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter();

    /** 1m becomes 1d: a day after the late event is past the window's expiry, so the correction comes before it. */
    @Test
    void aLongerCorrectionDelayDoesNotLetAPendingCorrectionExpire() {
        FaninEngine changed = firedThenChangedTo("1d");
        clock.advance(Duration.ofMinutes(10));
        ingest(changed, "e2");

        sweepUntil(changed, T0.plus(Duration.ofHours(30)));

        assertThat(aggregates()).as("the first revision, then the correction carrying e2").hasSize(2);
        JsonNode correction = aggregates().get(1);
        assertThat(correction.path("closeReason").asText()).isEqualTo("LATE_CORRECTION");
        assertThat(correction.path("seen").asLong()).isEqualTo(2);
        assertThat(((RecordingSideOutput) changed.ports().sideOutput()).sideRecords()).isEmpty();
    }

    /** 1m becomes 30m: that fits before the window's expiry, so the correction waits the new delay. */
    @Test
    void aLongerCorrectionDelayThatFitsBeforeTheExpiryIsWaitedFor() {
        FaninEngine changed = firedThenChangedTo("30m");
        clock.advance(Duration.ofMinutes(10));
        Instant lateEventAt = clock.instant();
        ingest(changed, "e2");

        sweepUntil(changed, lateEventAt.plus(Duration.ofMinutes(25)));
        assertThat(aggregates()).as("the correction still waits").hasSize(1);
        sweepUntil(changed, lateEventAt.plus(Duration.ofMinutes(35)));
        assertThat(aggregates()).hasSize(2);
    }

    /** Revision 0 of the window (event e1) emitted under the old delay, then the configuration with {@code delay}. */
    private FaninEngine firedThenChangedTo(String delay) {
        FaninEngine old = InMemoryEngines.of(PIPELINE, store, emitter, new RecordingTimers(), clock);
        ingest(old, "e1");
        sweepUntil(old, T0.plus(Duration.ofMinutes(15)));
        assertThat(aggregates()).as("revision 0").hasSize(1);
        return InMemoryEngines.reconfigured(old, PIPELINE.replace("correctionDelay: 1m", "correctionDelay: " + delay));
    }

    private void ingest(FaninEngine engine, String eventId) {
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m-" + eventId,
                InMemoryEngines.rawEvent("k", eventId, T0.plusSeconds(1)), clock.instant(), 1)));
    }

    private void sweepUntil(FaninEngine engine, Instant until) {
        while (clock.instant().isBefore(until)) {
            clock.advance(Duration.ofMinutes(5));
            store.expire(clock.instant());
            new SweepService(engine).sweep(clock.instant().plusSeconds(50));
        }
    }

    private List<JsonNode> aggregates() {
        List<JsonNode> out = new ArrayList<>();
        for (var r : emitter.emitted()) {
            try {
                out.add(JSON.readTree(r.detailJson()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }
}
