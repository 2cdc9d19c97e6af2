package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import dev.fanin.testkit.TestClock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One window that cannot be handled (here: its stored state is not readable, as a version before exact numbers could
 * leave it) fails only the messages whose events go to it; the rest of the batch is counted.
 */
class PoisonWindowIsolationTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant EVENT_TIME = NOW.minusSeconds(30);

    private final InMemoryWindowStore store = new InMemoryWindowStore(4);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 5m}"), store,
            emitter, new RecordingTimers(), new TestClock(NOW));
    private final IngestService ingest = new IngestService(engine);

    @Test
    void aWindowWhoseStateCannotBeReadFailsOnlyItsOwnMessages() {
        long start = EVENT_TIME.toEpochMilli() - EVENT_TIME.toEpochMilli() % 300_000L;
        WindowRef poisoned = new WindowRef("p", "bad", WindowRef.timeWindowId(start));
        store.create(new StoredWindow(poisoned, 0, WindowStatus.OPEN, null, NOW.plusSeconds(86_400), 0, null, Set.of(),
                "{\"k\":\"TUMBLING\",\"a\":{\"sum\":{\"v\":1e", null));

        BatchResult r = ingest.handle(List.of(
                InMemoryEngines.message("good-1", InMemoryEngines.rawEvent("good", "e1", EVENT_TIME), NOW, 1),
                InMemoryEngines.message("bad-1", InMemoryEngines.rawEvent("bad", "e2", EVENT_TIME), NOW, 1),
                InMemoryEngines.message("good-2", InMemoryEngines.rawEvent("other", "e3", EVENT_TIME), NOW, 1)));

        assertThat(r.failedMessageIds()).containsExactly("bad-1");
        assertThat(r.eventsAccepted()).isEqualTo(2);
    }

    @Test
    void onItsLastReceiveTheMessageIsDeadLetteredWithTheReason() {
        long start = EVENT_TIME.toEpochMilli() - EVENT_TIME.toEpochMilli() % 300_000L;
        store.create(new StoredWindow(new WindowRef("p", "bad", WindowRef.timeWindowId(start)), 0, WindowStatus.OPEN, null,
                NOW.plusSeconds(86_400), 0, null, Set.of(), "not json", null));
        int last = engine.settings().maxReceiveCount();

        BatchResult r = ingest.handle(List.of(
                InMemoryEngines.message("bad-1", InMemoryEngines.rawEvent("bad", "e2", EVENT_TIME), NOW, last),
                InMemoryEngines.message("good-1", InMemoryEngines.rawEvent("good", "e1", EVENT_TIME), NOW, last)));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(r.eventsAccepted()).isEqualTo(1);
        assertThat(r.deadLettered()).isEqualTo(1);
        assertThat(((RecordingSideOutput) engine.ports().deadLetters()).deadLetters()).singleElement()
                .satisfies(d -> {
                    assertThat(d.code()).isEqualTo("RETRIES_EXHAUSTED");
                    assertThat(d.reason()).startsWith("RETRIES_EXHAUSTED: INTERNAL_ERROR: IllegalStateException: window ")
                            .endsWith(" (on delivery " + last + ", MaxReceiveCount " + last + ")");
                });
    }

    @Test
    void aTimerOfAWindowWhoseStateCannotBeReadFailsAloneAndTheOthersCloseTheirWindows() {
        long start = EVENT_TIME.toEpochMilli() - EVENT_TIME.toEpochMilli() % 300_000L;
        WindowRef poisoned = new WindowRef("p", "bad", WindowRef.timeWindowId(start));
        ingest.handle(List.of(InMemoryEngines.message("good-1", InMemoryEngines.rawEvent("good", "e1", EVENT_TIME), NOW, 1)));
        store.create(new StoredWindow(poisoned, 0, WindowStatus.OPEN, null, NOW.plusSeconds(86_400), 0, null, Set.of(), "not json", null));
        WindowRef good = new WindowRef("p", "good", WindowRef.timeWindowId(start));
        Instant due = Instant.ofEpochMilli(start).plusSeconds(300);
        ((TestClock) engine.clock()).set(due.plusSeconds(400));   // the pipeline idle: the watermark is past both windows' end

        List<WindowTimers.Wakeup> failed = new TimerService(engine).fireAll(List.of(new WindowTimers.Wakeup(poisoned, due, 0),
                new WindowTimers.Wakeup(good, due, 0)));

        assertThat(failed).extracting(WindowTimers.Wakeup::ref).containsExactly(poisoned);
        assertThat(emitter.emitted()).extracting(AggregateEmitter.Request::aggregateId).singleElement().asString().contains("good");
    }
}
