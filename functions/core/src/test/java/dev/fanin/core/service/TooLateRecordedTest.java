package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * An event is never both counted and too late, whichever of its copies comes first. A producer resent an event three
 * minutes late, and its original, sent on time, was delivered only later, after a failed first delivery: the late copy
 * is judged by the pipeline's watermark (too late), the original by a watermark capped at its own send time (in
 * time). The simulation found the original counted as a correction after the copy had gone to the side output
 * (outages preset, seed 10). The too-late verdict is recorded in the window, and every later copy is reported too late
 * again; the report follows the write, so a write that loses to the original counting the event reports nothing.
 */
class TooLateRecordedTest extends TooLateFixture {

    @Test
    void theOriginalOfAnEventAlreadyTooLateIsTooLateAsWell() throws Exception {
        FaninEngine engine = engine(new InMemoryWindowStore(4));
        IngestService ingest = new IngestService(engine);
        lateCopyBeforeItsOriginal(ingest, new SweepService(engine), () -> { });

        BatchResult original = deliver(ingest, "orig", "e1", T0.plusSeconds(20), T0.plusSeconds(21), 2);
        clock.advance(Duration.ofMinutes(2));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        assertThat(original.tooLate()).as("the original meets the verdict").isEqualTo(1);
        assertThat(reportsOf("e1")).as("each copy reported (the side output is at least once)").isEqualTo(2);
        assertThat(counted()).as("only e0 counted").isEqualTo(1);
    }

    @Test
    void aCrashAfterTheWriteThatRecordsAVerdictLosesNoReport() throws Exception {
        // The write that records the verdict fails after it is applied (a timeout on the way back), before the report:
        // the message comes again and meets the verdict, which it reports.
        boolean[] crash = {false};
        InMemoryWindowStore memory = new InMemoryWindowStore(4);
        FaninEngine engine = engine(new ForwardingWindowStore(memory) {
            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                WriteOutcome outcome = super.replace(previous, next);
                if (crash[0]) {
                    crash[0] = false;
                    throw new IllegalStateException("crashed after the write");
                }
                return outcome;
            }
        });
        IngestService ingest = new IngestService(engine);
        BatchResult crashed = lateCopyBeforeItsOriginal(ingest, new SweepService(engine), () -> crash[0] = true);
        assertThat(crashed.failedMessageIds()).as("handed back").containsExactly("dup");
        assertThat(reportsOf("e1")).as("the report follows the write").isZero();

        BatchResult again = deliver(ingest, "dup", "e1", T0.plusSeconds(20), T0.plus(Duration.ofMinutes(5)).plusSeconds(8), 2);

        assertThat(again.tooLate()).isEqualTo(1);
        assertThat(reportsOf("e1")).isEqualTo(1);
        assertThat(counted()).isEqualTo(1);
    }

    /**
     * The late copy's write loses to another invocation counting the original (delivered with an older watermark) in
     * the meantime: decided again, the copy is a duplicate, and nothing was reported (a review: reported before the
     * write, the event ended counted and reported).
     */
    @Test
    void aVerdictWhoseWriteLosesToTheOriginalIsNeverReported() throws Exception {
        boolean[] race = {false};
        FaninEngine engine = racedBy(race, other -> deliver(other, "orig", "e1", T0.plusSeconds(20), T0.plusSeconds(21), 2));

        BatchResult late = lateCopyBeforeItsOriginal(new IngestService(engine), new SweepService(engine), () -> race[0] = true);
        clock.advance(Duration.ofMinutes(2));
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        assertThat(late.duplicates()).as("the original counted it first").isEqualTo(1);
        assertThat(reportsOf("e1")).isZero();
        assertThat(counted()).as("e0 and e1").isEqualTo(2);
    }

    /** A write that loses to another writer is decided again; the event is reported once, after the write that won. */
    @Test
    void aLostWriteRetriedReportsTheTooLateEventOnce() {
        boolean[] race = {false};
        FaninEngine engine = racedBy(race, other -> deliver(other, "m2", "e2", T0.plusSeconds(30), clock.instant(), 1));

        BatchResult late = lateCopyBeforeItsOriginal(new IngestService(engine), new SweepService(engine), () -> race[0] = true);

        assertThat(late.tooLate()).as("one event, one delivery").isEqualTo(1);
        assertThat(reportsOf("e1")).isEqualTo(1);
    }

    /** A report whose send fails fails its message, which comes again and meets the verdict its write recorded. */
    @Test
    void aFailedReportIsSentByTheRedelivery() {
        boolean[] down = {false};
        FaninEngine engine = new FaninEngine(ConfigLoader.load(YAML, "test"),
                new FaninPorts(new InMemoryWindowStore(4), watermarks, emitter, new RecordingTimers(), (kind, pipeline, json) -> {
                    if (down[0]) {
                        throw new IllegalStateException("side output down");
                    }
                    side.send(kind, pipeline, json);
                }, side, Metrics.NONE), FaninSettings.defaults(), clock);
        IngestService ingest = new IngestService(engine);
        BatchResult first = lateCopyBeforeItsOriginal(ingest, new SweepService(engine), () -> down[0] = true);
        down[0] = false;
        assertThat(first.failedMessageIds()).containsExactly("dup");

        BatchResult again = deliver(ingest, "dup", "e1", T0.plusSeconds(20), T0.plus(Duration.ofMinutes(5)).plusSeconds(8), 2);

        assertThat(again.failedMessageIds()).isEmpty();
        assertThat(reportsOf("e1")).isEqualTo(1);
    }

    /**
     * e0 opens [10:00, 10:01); another key takes the watermark past it; the window closes; e1's late copy comes.
     * Returns what its invocation did, or null when it crashed.
     */
    private BatchResult lateCopyBeforeItsOriginal(IngestService ingest, SweepService sweep, Runnable beforeTheCopy) {
        deliver(ingest, "m0", "e0", T0, T0.plusSeconds(1), 1);
        clock.set(T0.plus(Duration.ofMinutes(5)));
        ingest.handle(List.of(new InboundMessage("mx", "{\"k\":\"b\",\"id\":\"x\",\"t\":" + clock.instant().minusSeconds(5).toEpochMilli() + "}",
                1, clock.instant(), clock.instant(), Map.of())));
        clock.advance(Duration.ofSeconds(1));
        sweep.sweep(clock.instant().plusSeconds(50));
        assertThat(emitter.emitted()).as("the window closed").hasSize(1);
        beforeTheCopy.run();
        try {
            return deliver(ingest, "dup", "e1", T0.plusSeconds(20), T0.plus(Duration.ofMinutes(5)).plusSeconds(8), 1);
        } catch (IllegalStateException crashed) {
            return null; // the invocation died; its message comes again
        }
    }

    /**
     * An engine whose next window write, once {@code armed}, first lets {@code rival} deliver through another invocation
     * on the same store: that write then loses, and is decided again.
     */
    private FaninEngine racedBy(boolean[] armed, Consumer<IngestService> rival) {
        InMemoryWindowStore memory = new InMemoryWindowStore(4);
        IngestService other = new IngestService(engine(memory));
        return engine(new ForwardingWindowStore(memory) {
            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                if (armed[0]) {
                    armed[0] = false;
                    rival.accept(other);
                }
                return super.replace(previous, next);
            }
        });
    }

    /** Key a's count in its latest aggregate. */
    private int counted() {
        List<com.fasterxml.jackson.databind.JsonNode> aggregates = emittedFor("a");
        return aggregates.isEmpty() ? 0 : aggregates.get(aggregates.size() - 1).path("aggregations").path("n").asInt();
    }
}
