package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.window.WindowRef;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An ingest batch reads every session key (or time window) it writes in one request up front; each first attempt
 * starts from that read, an attempt after a lost write reads its key again on its own, and a failed batch read leaves
 * each key to read itself.
 */
class BatchReadsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final TestClock clock = new TestClock(T0.plusSeconds(6));
    private final InMemoryWindowStore store = new InMemoryWindowStore(4);

    /** Counts the store's reads, one by one and together. */
    private static class CountingStore extends ForwardingWindowStore {
        final List<List<String>> together = new ArrayList<>();
        final List<String> alone = new ArrayList<>();

        CountingStore(WindowStore delegate) {
            super(delegate);
        }

        @Override
        public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
            together.add(List.copyOf(keys));
            return super.loadLiveAll(pipeline, keys);
        }

        @Override
        public Map<WindowRef, Optional<StoredWindow>> loadAll(List<WindowRef> refs) {
            together.add(refs.stream().map(BatchReadsTest::named).toList());
            return super.loadAll(refs);
        }

        @Override
        public LiveSessions loadLive(String pipeline, String key) {
            alone.add(key);
            return super.loadLive(pipeline, key);
        }

        @Override
        public Optional<StoredWindow> load(WindowRef ref) {
            alone.add(named(ref));
            return super.load(ref);
        }
    }

    private static String named(WindowRef ref) {
        return ref.key() + "/" + ref.windowId();
    }

    private IngestService ingest(String window, WindowStore windows) {
        return new IngestService(InMemoryEngines.of(InMemoryEngines.rawPipeline(window), windows, new RecordingEmitter(), new RecordingTimers(), clock));
    }

    private static InboundMessage event(String key, String id, int secondsAfterT0) {
        return InMemoryEngines.message("m-" + id, InMemoryEngines.rawEvent(key, id, T0.plusSeconds(secondsAfterT0)), T0.plusSeconds(6), 1);
    }

    /**
     * A store on which another invocation ingests {@code interfering} just before this batch's first write: after the
     * batch read its windows up front and before it writes any.
     */
    private CountingStore racing(String window, InboundMessage interfering) {
        IngestService other = ingest(window, store);
        boolean[] interfered = {false};
        return new CountingStore(store) {
            @Override
            public WriteOutcome replaceLive(LiveSessions previous, LiveSessions next) {
                interfere();
                return super.replaceLive(previous, next);
            }

            @Override
            public WriteOutcome create(StoredWindow window) {
                interfere();
                return super.create(window);
            }

            private void interfere() {
                if (!interfered[0]) {
                    interfered[0] = true;
                    assertThat(other.handle(List.of(interfering)).failedMessageIds()).isEmpty();
                }
            }
        };
    }

    @Test
    void aSessionBatchReadsItsKeysInOneRequestBusiestFirstAndNoneAgain() {
        CountingStore counting = new CountingStore(store);
        List<InboundMessage> batch = List.of(event("a", "a1", 0), event("b", "b1", 1), event("b", "b2", 2), event("c", "c1", 3));

        BatchResult result = ingest("{type: session, gap: 30s}", counting).handle(batch);

        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(result.eventsAccepted()).isEqualTo(4);
        assertThat(counting.together).containsExactly(List.of("b", "a", "c"));
        assertThat(counting.alone).isEmpty();
    }

    @Test
    void aTimeWindowBatchReadsItsWindowsInOneRequestAndNoneAgain() {
        CountingStore counting = new CountingStore(store);
        List<InboundMessage> batch = List.of(event("a", "a1", 0), event("b", "b1", 1), event("c", "c1", 2));

        BatchResult result = ingest("{type: tumbling, size: 60s}", counting).handle(batch);

        assertThat(result.eventsAccepted()).isEqualTo(3);
        assertThat(counting.together).hasSize(1);
        assertThat(counting.together.get(0)).hasSize(3);
        assertThat(counting.alone).isEmpty();
    }

    /**
     * Another invocation writes a window after this batch read it up front and before this batch writes it: the
     * batch's busiest window {@code a} (written first, its write lost), or {@code b} while this batch writes {@code a}
     * (decided from the older read, refused). Only that window is read again, alone, and each event counts once.
     */
    @ParameterizedTest(name = "session windows: {0}, raced: {1}")
    @CsvSource({"true, a", "false, a", "true, b", "false, b"})
    void aWindowChangedSinceTheReadUpFrontIsReadAgainAloneAndCountsEachEventOnce(boolean sessions, String raced) {
        String window = sessions ? "{type: session, gap: 30s}" : "{type: tumbling, size: 60s}";
        CountingStore racing = racing(window, raced.equals("a") ? event("a", "a2", 2) : event("b", "b1", 1));

        BatchResult result = ingest(window, racing).handle(List.of(event("a", "a1", 0), event("a", "a2", 2), event("b", "b1", 1)));

        assertThat(result.failedMessageIds()).isEmpty();
        assertThat(result.eventsAccepted()).isEqualTo(2);
        assertThat(result.duplicates()).as("the raced event, counted by the other invocation").isEqualTo(1);
        assertThat(racing.together).hasSize(1);
        String lost = sessions ? raced : raced + "/" + WindowRef.timeWindowId(T0.toEpochMilli());
        assertThat(racing.alone).as("only the lost write's window is read again").isNotEmpty().containsOnly(lost);
    }

    @Test
    void aKeyTheBatchReadLeftOutIsReadAlone() {
        CountingStore partial = new CountingStore(store) {
            @Override
            public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
                together.add(List.copyOf(keys));
                return Map.of(keys.get(0), store.loadLive(pipeline, keys.get(0)));
            }
        };

        BatchResult result = ingest("{type: session, gap: 30s}", partial).handle(List.of(event("a", "a1", 0), event("a", "a2", 1),
                event("b", "b1", 2), event("c", "c1", 3)));

        assertThat(result.eventsAccepted()).isEqualTo(4);
        assertThat(partial.alone).containsExactly("b", "c");
    }

    @Test
    void aBatchOfOneKeyReadsItAloneAsItsTurnComes() {
        CountingStore counting = new CountingStore(store);

        ingest("{type: session, gap: 30s}", counting).handle(List.of(event("a", "a1", 0), event("a", "a2", 1)));

        assertThat(counting.together).isEmpty();
        assertThat(counting.alone).containsExactly("a");
    }

    @ParameterizedTest(name = "transient: {0}")
    @ValueSource(booleans = {true, false})
    void whenTheBatchReadFailsEachKeyIsReadOnItsOwn(boolean transientFailure) {
        CountingStore failing = new CountingStore(store) {
            @Override
            public Map<String, LiveSessions> loadLiveAll(String pipeline, List<String> keys) {
                throw transientFailure ? new StoreUnavailableException("throttled", null) : new IllegalStateException("a validation error");
            }
        };

        List<String> metrics = new ArrayList<>();
        FaninEngine engine = new FaninEngine(ConfigLoader.load(InMemoryEngines.rawPipeline("{type: session, gap: 30s}"), "test"),
                new FaninPorts(failing, new InMemoryWatermarkStore(), new RecordingEmitter(), new RecordingTimers(), new RecordingSideOutput(),
                        new RecordingSideOutput(), (name, value, unit, dimensions) -> metrics.add(name + " " + dimensions.get("pipeline"))),
                FaninSettings.defaults(), clock);

        BatchResult result = new IngestService(engine).handle(List.of(event("a", "a1", 0), event("b", "b1", 1)));

        assertThat(result.eventsAccepted()).isEqualTo(2);
        assertThat(failing.alone).containsExactly("a", "b");
        assertThat(metrics).contains(MetricNames.BATCH_READ_FALLBACKS + " p");
    }
}
