package dev.fanin.core.service;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.WindowStore;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The open-window bound kept with one counter update per batch: slots are reserved before windows are created and
 * returned after they close, so the bound is never passed; slots a crash leaves behind come back when their
 * admission epoch retires.
 */
class OpenWindowSlotsTest {

    private static final String YAML = """
            version: 1
            pipelines:
              - name: alerts
                match: [{path: $.kind, equals: alert}]
                envelope: raw
                key: [$.service]
                eventId: $.id
                eventTime: {path: $.at}
                window: {type: session, gap: 30s}
                triggers: {maxLifetime: 10m}
                watermark: {outOfOrderness: 5s, idleAfter: 30s}
                allowedLateness: 2m
                incomplete: {policy: fire-partial}
                aggregations: [{name: alerts, type: count}]
                bounds: {maxOpenWindows: 4}
                emit:
                  eventbridge: {bus: b, source: fanin, detailType: fanin.aggregate}
            """;

    private final FaninConfig config = ConfigLoader.load(YAML, "test");
    private final PipelineConfig alerts = config.pipeline("alerts").orElseThrow();
    private final TestClock clock = new TestClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final InMemoryWindowStore memory = new InMemoryWindowStore(4);
    private final AtomicInteger reservations = new AtomicInteger();
    private final AtomicInteger releases = new AtomicInteger();
    private final WindowStore store = counting(memory);
    private final RecordingEmitter emitter = new RecordingEmitter(AggregateSchema::assertValid);
    private final RecordingSideOutput side = new RecordingSideOutput();
    private final FaninEngine engine = new FaninEngine(config,
            new FaninPorts(store, new InMemoryWatermarkStore(), emitter, new RecordingTimers(), side, side, Metrics.NONE),
            FaninSettings.defaults(), clock);
    private final IngestService ingest = new IngestService(engine);
    private final SweepService sweep = new SweepService(engine);
    private int seq;

    @Test
    void aBatchOpeningSeveralWindowsReservesTheirSlotsInOneUpdate() {
        BatchResult r = ingest.handle(List.of(alert("a"), alert("b"), alert("c"), alert("a")));

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(reservations).as("one reservation for the batch's three new sessions").hasValue(1);
        assertThat(memory.openWindows("alerts")).isEqualTo(3);
        assertThat(releases).as("all reserved slots were used").hasValue(0);
    }

    @Test
    void windowsPastTheBoundAreRefusedAndRetriedAndSlotsReturnWhenWindowsClose() {
        BatchResult first = ingest.handle(List.of(alert("a"), alert("b"), alert("c"), alert("d"), alert("e"), alert("f")));

        assertThat(first.failedMessageIds()).as("two new sessions over the bound of 4").hasSize(2);
        assertThat(memory.openWindows("alerts")).isEqualTo(4);

        clock.advance(Duration.ofMinutes(2));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).hasSize(4);
        assertThat(memory.openWindows("alerts")).as("closing returned every slot").isZero();

        BatchResult retried = ingest.handle(List.of(alert("e"), alert("f")));
        assertThat(retried.failedMessageIds()).isEmpty();
        assertThat(memory.openWindows("alerts")).isEqualTo(2);
    }

    @Test
    void aCreateLostToAnotherWriterKeepsItsSlotForTheBatchAndReturnsItAtTheEnd() {
        // Another ingester created session "a" first: this batch reserves two slots, uses one for "b" and hands the
        // unused one back when it ends.
        ingest.handle(List.of(alert("a")));
        int before = releases.get();

        ingest.handle(List.of(alert("b"), alert("a")));

        assertThat(memory.openWindows("alerts")).isEqualTo(2);
        assertThat(releases.get() - before).isEqualTo(1);
    }

    @Test
    void slotsLeftBehindByACrashReturnWhenTheirEpochRetires() {
        // A crash between a reservation and its windows' creation: two slots held by no window.
        long epoch = epochOf(clock.instant(), alerts);
        memory.reserveSlots("alerts", epoch, 2, 4);
        ingest.handle(List.of(alert("a")));
        clock.advance(Duration.ofMinutes(2));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(memory.openWindows("alerts")).as("conservative: the lost slots are still counted").isEqualTo(2);

        clock.advance(AdmissionEpochs.length(alerts).multipliedBy(2).plus(AdmissionEpochs.RETIRE_MARGIN));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(memory.openWindows("alerts")).isZero();
        assertThat(memory.slotsByEpoch("alerts")).isEmpty();
    }

    @Test
    void anEpochRetiresOnlyAfterEveryWindowCreatedInItIsPastItsHardDeadlineAndTheMargin() {
        Instant created = Instant.parse("2026-11-29T10:07:00Z");
        long epoch = epochOf(created, alerts);
        long length = alerts.triggers().maxLifetime().toMillis();
        Instant epochEnd = Instant.ofEpochMilli((Math.floorDiv(created.toEpochMilli(), length) + 1) * length);
        Instant lastDeadline = epochEnd.plus(alerts.triggers().maxLifetime());

        assertThat(epochOf(epochEnd.minusMillis(1), alerts)).as("the epoch's last window").isEqualTo(epoch);
        assertThat(AdmissionEpochs.retirableBefore(lastDeadline.plus(AdmissionEpochs.RETIRE_MARGIN).minusMillis(1))).isLessThanOrEqualTo(epoch);
        assertThat(AdmissionEpochs.retirableBefore(lastDeadline.plus(AdmissionEpochs.RETIRE_MARGIN))).isGreaterThan(epoch);
    }

    /**
     * A window's slot is counted in the epoch of its own lifetime, fixed when it opens: windows open across a change
     * of {@code maxLifetime} give their slots back where they took them, and their epoch retires by their deadlines,
     * not by the new lifetime.
     */
    @Test
    void windowsOpenAcrossALongerMaxLifetimeReturnTheirSlots() {
        ingest.handle(List.of(alert("a"), alert("b"), alert("c"), alert("d")));
        assertThat(memory.openWindows("alerts")).isEqualTo(4);

        FaninEngine longer = withMaxLifetime("1h");
        clock.advance(Duration.ofMinutes(2));
        new SweepService(longer).sweep(clock.instant().plusSeconds(60));

        assertThat(emitter.emitted()).hasSize(4);
        assertThat(memory.openWindows("alerts")).as("every slot back in the epoch it was taken in").isZero();
        assertThat(memory.slotsByEpoch("alerts").values()).containsOnly(0L);
        assertThat(new IngestService(longer).handle(List.of(alert("e"))).failedMessageIds()).isEmpty();
    }

    @Test
    void slotsLeftBehindUnderALongerLifetimeOutlastAShorterOneConfiguredSince() {
        FaninEngine longer = withMaxLifetime("1h");
        long epoch = epochOf(clock.instant(), longer.machine("alerts").config());
        memory.reserveSlots("alerts", epoch, 2, 4);

        // Windows created under the 1h lifetime may be open for up to two hours: the 10m configured now must not retire them.
        clock.advance(Duration.ofMinutes(20).plus(AdmissionEpochs.RETIRE_MARGIN));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(memory.openWindows("alerts")).isEqualTo(2);

        clock.advance(Duration.ofHours(2));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(memory.openWindows("alerts")).isZero();
    }

    private FaninEngine withMaxLifetime(String lifetime) {
        return InMemoryEngines.reconfigured(engine, YAML.replace("maxLifetime: 10m", "maxLifetime: " + lifetime));
    }

    /** The epoch of a window of {@code pipeline} opened at {@code openedAt}. */
    private static long epochOf(Instant openedAt, PipelineConfig pipeline) {
        return AdmissionEpochs.of(openedAt, openedAt.plus(pipeline.triggers().maxLifetime()));
    }

    /**
     * New windows refused at the bound are not arrivals: holding the idle advance for them would keep open the very
     * windows whose close frees their slots (until their hard deadline), while the refused messages use up their
     * deliveries.
     */
    @Test
    void messagesRefusedAtTheBoundDoNotHoldTheIdleAdvanceThatClosesTheWindowsHoldingTheSlots() {
        ingest.handle(List.of(alert("a"), alert("b"), alert("c"), alert("d")));
        Instant lastArrival = engine.ports().watermarks().read("alerts").lastArrival();
        for (int retry = 0; retry < 4; retry++) {
            clock.advance(Duration.ofSeconds(20));
            assertThat(ingest.handle(List.of(alert("e"))).failedMessageIds()).as("refused at the bound").hasSize(1);
        }

        assertThat(engine.ports().watermarks().read("alerts").lastArrival()).isEqualTo(lastArrival);
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).as("closed by the idle advance, 80 s after the last arrival").hasSize(4);
        assertThat(ingest.handle(List.of(alert("e"))).failedMessageIds()).as("admitted once they closed").isEmpty();
    }

    @Test
    void aLateCorrectionOfAClosedWindowTakesNoSlot() {
        ingest.handle(List.of(alert("a")));
        clock.advance(Duration.ofMinutes(2));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).hasSize(1);
        assertThat(memory.openWindows("alerts")).isZero();

        // Inside the closed session and within its allowed lateness: a correction.
        ingest.handle(List.of(alertAt("a", clock.instant().minusSeconds(110))));
        assertThat(memory.openWindows("alerts")).isZero();
        clock.advance(Duration.ofMinutes(1));
        sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(emitter.emitted()).as("the correction was emitted").hasSize(2);
        assertThat(memory.openWindows("alerts")).isZero();
    }

    /** Refused until its last delivery, a message is dead-lettered saying which bound refused it, with the figures. */
    @Test
    void aMessageRefusedByTheBoundUntilItsLastDeliveryIsDeadLetteredWithTheBoundAndTheDeliveries() {
        ingest.handle(List.of(alert("a"), alert("b"), alert("c"), alert("d")));
        int last = engine.settings().maxReceiveCount();
        InboundMessage fifth = alert("e");
        InboundMessage lastDelivery = new InboundMessage(fifth.messageId(), fifth.body(), last, clock.instant(), clock.instant(),
                Map.of());

        BatchResult r = ingest.handle(List.of(lastDelivery));

        assertThat(r.deadLettered()).isEqualTo(1);
        assertThat(side.deadLetters()).singleElement().satisfies(d -> assertThat(d.reason()).matches(
                "RETRIES_EXHAUSTED: OPEN_WINDOW_BOUND: pipeline alerts holds bounds.maxOpenWindows=4 open windows; window S\\d+ waits"
                        + " for one to close \\(on delivery " + last + ", MaxReceiveCount " + last + "\\)"));
    }

    private InboundMessage alert(String service) {
        return alertAt(service, clock.instant());
    }

    private InboundMessage alertAt(String service, Instant at) {
        seq++;
        String body = "{\"kind\":\"alert\",\"service\":\"" + service + "\",\"id\":\"e" + seq + "\",\"at\":\"" + at + "\"}";
        return new InboundMessage("m-" + seq, body, clock.instant(), clock.instant());
    }

    /** The store with its slot reservations and releases counted. */
    private WindowStore counting(InMemoryWindowStore inner) {
        return (WindowStore) java.lang.reflect.Proxy.newProxyInstance(WindowStore.class.getClassLoader(), new Class<?>[] {WindowStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("reserveSlots")) {
                        reservations.incrementAndGet();
                    } else if (method.getName().equals("releaseSlots")) {
                        releases.incrementAndGet();
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void anExtendedSessionSweptEveryMinuteIsNeverOverdueButABucketLeftUnsweptIs() {
        // A session extended every 20 s for four minutes, swept every minute: its listings are early, never overdue.
        for (int i = 1; i <= 12; i++) {
            ingest.handle(List.of(alert("a")));
            clock.advance(Duration.ofSeconds(20));
            if (i % 3 == 0) {
                SweepReport extended = sweep.sweep(clock.instant().plusSeconds(60));
                assertThat(extended.overdue()).as("early, not overdue: the session is not due yet").isZero();
            }
        }
        assertThat(emitter.emitted()).isEmpty();

        // No sweep (and no timer) for ten minutes after the session is due: its listing is overdue.
        clock.advance(Duration.ofMinutes(10));
        SweepReport late = sweep.sweep(clock.instant().plusSeconds(60));
        assertThat(late.overdue()).isEqualTo(1);
        assertThat(emitter.emitted()).hasSize(1);
    }
}
