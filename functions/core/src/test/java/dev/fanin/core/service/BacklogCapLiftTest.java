package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.text.ExactJson;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A window written while a backlog's cap holds the watermark is looked at again when the cap may lift, not when a
 * watermark moving with the clock would pass its end (docs/SEMANTICS.md, "Consumer lag"). A review found its next
 * check taken from the capped watermark: it closed as late as the backlog was deep, one window a minute, and a session
 * at the new end of an outage's backlog reached its hard deadline and was cut there (its end its last event + 1 ms),
 * unlike the same session delivered in order.
 */
class BacklogCapLiftTest {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");

    private record Message(String id, String key, Instant sent, Instant delivered) { }

    /** Prompt 1/s; a 10-minute outage from 100 s on, drained shuffled 10 a second; prompt again after it. */
    @Test
    void windowsOfADrainedBacklogCloseWithinTwiceIdleAfterOfItsLastBehindMessage() {
        List<Message> messages = new ArrayList<>();
        List<Message> queued = new ArrayList<>();
        for (int s = 0; s < 1500; s++) {
            Message m = new Message("m" + s, "a", T0.plusSeconds(s), T0.plusSeconds(s));
            (s >= 100 && s < 700 ? queued : messages).add(m);
        }
        Instant outageEnd = T0.plusSeconds(700);
        messages.addAll(drained(queued, outageEnd, 7));
        Map<String, JsonNode> emitted = run("{type: tumbling, size: 1m}", "30m", "{outOfOrderness: 5s, idleAfter: 1m}", "10m", messages, 0, 45);

        Instant bound = outageEnd.plusSeconds(59).plus(Duration.ofMinutes(2));
        emitted.values().stream().filter(a -> start(a).isAfter(T0.plusSeconds(119)) && start(a).isBefore(T0.plusSeconds(660)))
                .forEach(a -> assertThat(Instant.parse(a.path("closedAt").asText())).as("window %s", start(a)).isBeforeOrEqualTo(bound));
    }

    /** A session of three messages at 400-402 s in a steady background; with an outage, queued and drained shuffled. */
    @ParameterizedTest(name = "outage {0}, ending at T0+{1}s, sweeps at second {2}")
    @CsvSource({"false,420,0", "true,420,0", "true,435,15"})
    void aSessionAtTheNewEndOfABacklogClosesByItsGapNotCutAtItsDeadline(boolean outage, long outageEnd, int sweepSecond) {
        List<Message> messages = new ArrayList<>();
        List<Message> queued = new ArrayList<>();
        for (int s = 0; s < 1200; s++) {
            Message m = new Message("bg" + s, "bg", T0.plusSeconds(s), T0.plusSeconds(s));
            (outage && s >= 60 && s < outageEnd ? queued : messages).add(m);
        }
        for (int s = 400; s < 403; s++) {
            Message m = new Message("s" + s, "s", T0.plusSeconds(s), T0.plusSeconds(s));
            (outage ? queued : messages).add(m);
        }
        messages.addAll(drained(queued, T0.plusSeconds(outageEnd), 3));
        Map<String, JsonNode> emitted = run("{type: session, gap: 30s}", "5m", "{outOfOrderness: 10s, idleAfter: 30s}", "2m", messages,
                sweepSecond, 30);

        List<JsonNode> session = emitted.values().stream().filter(a -> a.path("key").asText().equals("s")).toList();
        assertThat(session).hasSize(1);
        JsonNode s = session.get(0);
        assertThat(s.path("window").path("end").asText()).as("its last event + gap").isEqualTo("2026-12-07T10:07:12.000Z");
        assertThat(s.path("closeReason").asText()).isEqualTo("SESSION_GAP");
        Instant drainedAt = T0.plusSeconds(outage ? outageEnd + queued.size() / 10 : 432);
        assertThat(Instant.parse(s.path("closedAt").asText())).as("within twice idleAfter and a sweep of the drain")
                .isBefore(drainedAt.plusSeconds(120));
    }

    /**
     * A queue that stays behind (every message waits 8 s, outOfOrderness 5 s) caps the watermark for good; a window
     * whose end is far ahead of even the uncapped watermark is not looked at each time the cap may lift (a review
     * counted 40 visits per quiet window in 40 minutes, 4,000 timer messages and reads, when the cap lifted once per
     * idleAfter).
     */
    @Test
    void aWindowFarAheadOfTheUncappedWatermarkIsNotVisitedEachTimeTheCapMayLift() {
        TestClock clock = new TestClock(T0);
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1h}", "3h",
                "{outOfOrderness: 5s, idleAfter: 1m}", ""), new InMemoryWindowStore(4), new RecordingEmitter(), timers, clock);
        IngestService ingest = new IngestService(engine);
        TimerService timerService = new TimerService(engine);
        long quietVisits = 0;
        for (int s = 8; s < 40 * 60; s++) {
            Instant now = T0.plusSeconds(s);
            clock.set(now);
            Instant sent = now.minusSeconds(8);
            List<InboundMessage> batch = new ArrayList<>(List.of(message("busy", "busy" + s, sent, now)));
            if (s == 30) {
                for (int k = 0; k < 10; k++) {
                    batch.add(message("q" + k, "q" + k, sent, now));
                }
            }
            ingest.handle(batch);
            for (RecordingTimers.Timer t : timers.takeDue(now)) {
                quietVisits += t.ref().key().startsWith("q") ? 1 : 0;
                timerService.fire(t.wakeup());
            }
        }
        assertThat(quietVisits / 10).as("visits per quiet window in 40 minutes, its end 20 minutes further").isLessThanOrEqualTo(5);
    }

    /**
     * A batch's own redelivery holds only that batch's watermark: a window it writes is scheduled by the watermark
     * every visitor reads, and closes when that passes its end (a review: at its redelivery's lapse, 45 s later).
     */
    @Test
    void aWindowWrittenBesideARedeliveryClosesWhenTheSharedWatermarkPassesItsEnd() {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}", "30m",
                "{outOfOrderness: 5s, idleAfter: 1m}", ""), new InMemoryWindowStore(4), emitter, timers, clock);
        IngestService ingest = new IngestService(engine);
        TimerService timerService = new TimerService(engine);
        Instant closed = null;
        for (int s = 0; s < 240 && closed == null; s++) {
            Instant now = T0.plusSeconds(s);
            clock.set(now);
            List<InboundMessage> batch = new ArrayList<>(List.of(message("bg", "bg" + s, now, now)));
            if (s == 50) {
                batch.add(message("a", "a1", now, now));
                Instant sent = now.minusSeconds(120);
                batch.add(new InboundMessage("old", InMemoryEngines.rawEvent("z", "old", sent), 2, sent, now, Map.of()));
            }
            ingest.handle(batch);
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
            if (emitter.emitted().stream().anyMatch(r -> r.detailJson().contains("\"key\":\"a\""))) {
                closed = now;
            }
        }
        assertThat(closed).as("the shared watermark passes 10:01 at 10:01:05").isBeforeOrEqualTo(T0.plusSeconds(70));
    }

    /** A first delivery of {@code id} for {@code key}, sent and received as given. */
    private static InboundMessage message(String key, String id, Instant sent, Instant received) {
        return new InboundMessage(id, InMemoryEngines.rawEvent(key, id, sent), 1, sent, received, Map.of());
    }

    private static List<Message> drained(List<Message> queued, Instant from, long seed) {
        List<Message> shuffled = new ArrayList<>(queued);
        Collections.shuffle(shuffled, new Random(seed));
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < shuffled.size(); i++) {
            Message q = shuffled.get(i);
            out.add(new Message(q.id(), q.key(), q.sent(), from.plusSeconds(i / 10)));
        }
        return out;
    }

    /** Delivers each second's messages as one batch, fires due timers, sweeps once a minute; returns aggregates by id. */
    private static Map<String, JsonNode> run(String window, String lifetime, String watermark, String lateness, List<Message> messages,
                                             int sweepSecond, int minutes) {
        TestClock clock = new TestClock(T0);
        RecordingEmitter emitter = new RecordingEmitter();
        RecordingTimers timers = new RecordingTimers();
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline(window, lifetime, watermark, "    allowedLateness: " + lateness + "\n"),
                new InMemoryWindowStore(4), emitter, timers, clock);
        IngestService ingest = new IngestService(engine);
        SweepService sweep = new SweepService(engine);
        TimerService timerService = new TimerService(engine);
        Map<Instant, List<InboundMessage>> bySecond = new TreeMap<>();
        for (Message m : messages) {
            bySecond.computeIfAbsent(m.delivered(), k -> new ArrayList<>())
                    .add(new InboundMessage(m.id(), InMemoryEngines.rawEvent(m.key(), m.id(), m.sent()), 1, m.sent(), m.delivered(), Map.of()));
        }
        for (Instant now = T0; now.isBefore(T0.plus(Duration.ofMinutes(minutes))); now = now.plusSeconds(1)) {
            clock.set(now);
            List<InboundMessage> batch = bySecond.get(now);
            if (batch != null) {
                ingest.handle(batch);
            }
            Instant at = now;
            timers.takeDue(now).forEach(t -> timerService.fire(t.wakeup()));
            if (at.getEpochSecond() % 60 == sweepSecond) {
                sweep.sweep(now.plusSeconds(60));
            }
        }
        Map<String, JsonNode> byId = new TreeMap<>();
        emitter.emitted().forEach(r -> byId.put(r.aggregateId(), read(r.detailJson())));
        return byId;
    }

    private static Instant start(JsonNode aggregate) {
        return Instant.parse(aggregate.path("window").path("start").asText());
    }

    private static JsonNode read(String json) {
        try {
            return ExactJson.read(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
