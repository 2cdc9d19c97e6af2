package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.ForwardingWindowStore;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowStore;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.testkit.AggregateSchema;
import dev.fanin.testkit.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sweep or timer visit that lost its claim's write to another writer decides again at the retry's time: the claim it
 * then writes holds a lease counted from that write, not from the visit's start (a lease already partly spent would be
 * open to a takeover and a second emission).
 */
class VisitClaimLeaseTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:10Z");

    private final TestClock clock = new TestClock(T0);
    private final List<StoredWindow> claims = new ArrayList<>();
    private final List<Instant> claimedAt = new ArrayList<>();
    private boolean lost;

    @Test
    void aSweepClaimWrittenOnARetryHoldsALeaseFromTheRetry() {
        FaninEngine engine = oneWindowWhoseFirstClaimLoses(new InMemoryWindowStore(4));

        clock.set(Instant.parse("2026-11-29T10:07:00Z"));
        Instant visitStart = clock.instant();
        new SweepService(engine).sweep(clock.instant().plusSeconds(50));

        assertThat(lost).as("the first claim lost").isTrue();
        assertThat(claims).isNotEmpty();
        assertThat(engine.decode(claims.get(0)).leaseUntil()).as("counted from the retry, 20 s after the visit began")
                .isEqualTo(claimedAt.get(0).plus(engine.settings().lease()))
                .isAfterOrEqualTo(visitStart.plusSeconds(20).plus(engine.settings().lease()));
    }

    @Test
    void anOperatorCloseWrittenOnARetryHoldsALeaseFromTheRetry() {
        InMemoryWindowStore memory = new InMemoryWindowStore(4);
        FaninEngine engine = oneWindowWhoseFirstClaimLoses(memory);
        dev.fanin.core.window.WindowRef ref = memory.all().get(0).ref();
        Instant requested = clock.instant();

        new OperatorService(engine).close(ref, "closing by hand");

        assertThat(lost).as("the first claim lost").isTrue();
        assertThat(engine.decode(claims.get(0)).leaseUntil()).as("counted from the retry, 20 s after the request")
                .isEqualTo(claimedAt.get(0).plus(engine.settings().lease()))
                .isAfterOrEqualTo(requested.plusSeconds(20).plus(engine.settings().lease()));
    }

    /**
     * An engine on {@code memory} holding one open window, whose first claim (a replace of the OPEN window) loses to
     * another writer 20 s into the attempt; every later write is recorded with its time.
     */
    private FaninEngine oneWindowWhoseFirstClaimLoses(InMemoryWindowStore memory) {
        WindowStore losingOnce = new ForwardingWindowStore(memory) {
            @Override
            public WriteOutcome replace(StoredWindow previous, StoredWindow next) {
                if (previous.status() == dev.fanin.core.window.WindowStatus.OPEN && !lost) {
                    lost = true;
                    clock.advance(Duration.ofSeconds(20));
                    return WriteOutcome.rejected(WriteOutcome.Rejection.CONFLICT, 1);
                }
                claims.add(next);
                claimedAt.add(clock.instant());
                return super.replace(previous, next);
            }
        };
        FaninEngine engine = InMemoryEngines.of(InMemoryEngines.rawPipeline("{type: tumbling, size: 1m}"), losingOnce,
                new RecordingEmitter(AggregateSchema::assertValid), new RecordingTimers(), clock);
        new IngestService(engine).handle(List.of(InMemoryEngines.message("m-a", InMemoryEngines.rawEvent("a", "e-a", T0), T0, 1)));
        return engine;
    }
}
