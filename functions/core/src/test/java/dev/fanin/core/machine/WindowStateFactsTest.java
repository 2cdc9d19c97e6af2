package dev.fanin.core.machine;

import static dev.fanin.core.trigger.EventFixture.event;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.trigger.PipelineFixture;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a window's state says about itself, by stage of its life: whether it holds an open-window slot (from creation to
 * its first close; a correction takes none), whether it is claimed, whether a revision was committed.
 */
class WindowStateFactsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final WindowMachine machine = new WindowMachine(PipelineFixture.pipeline().count(2).build(), Duration.ofSeconds(30));

    private static WindowState stored(Transition t, WindowState read) {
        assertThat(t.write()).isTrue();
        return t.next().withVersion(read.version() + 1);
    }

    private static long wm(Instant now) {
        return now.toEpochMilli() - 5_000;
    }

    @Test
    void slotsClaimsAndCommitsAlongOneWindowsLife() {
        WindowRef ref = new WindowRef("test-pipe", "key-1", WindowRef.timeWindowId(T0.toEpochMilli()));
        WindowState fresh = machine.open(ref, new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 60_000), T0);
        WindowState open = stored(machine.ingest(fresh, List.of(event("e1", T0.toEpochMilli())), wm(T0), T0), fresh);
        Instant at = T0.plusSeconds(1);
        WindowState claimed = stored(machine.ingest(open, List.of(event("e2", at.toEpochMilli())), wm(at), at), open);
        WindowState closed = stored(machine.commit(claimed, claimed.fence(), wm(at), at), claimed);
        Instant late = T0.plusSeconds(70);
        WindowState pending = stored(machine.ingest(closed, List.of(event("e3", T0.toEpochMilli() + 5)),
                T0.toEpochMilli() + 61_000, late), closed);
        WindowState correction = stored(machine.tick(pending, T0.toEpochMilli() + 61_000, late.plusSeconds(5)), pending);
        assertThat(correction.claim().reason()).isEqualTo(CloseReason.LATE_CORRECTION);

        List<WindowState> life = List.of(open, claimed, closed, correction);
        assertThat(life).extracting(WindowState::holdsSlot).containsExactly(true, true, false, false);
        assertThat(life).extracting(WindowState::isClaimed).containsExactly(false, true, false, true);
        assertThat(life).extracting(WindowState::hasCommitted).containsExactly(false, false, true, true);
        assertThat(life).extracting(WindowState::aggregateId)
                .containsExactly(ref.aggregateId(0), ref.aggregateId(0), ref.aggregateId(1), ref.aggregateId(1));
        assertThat(LegacyMerged.of(open).holdsSlot()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> counts against the open-window bound: {1}")
    @CsvSource({"OPEN, true", "HELD, true", "CLAIMED, true", "CLOSED, false", "MERGED, false"})
    void statusesThatCountAsOpen(WindowStatus status, boolean open) {
        assertThat(status.isOpen()).isEqualTo(open);
    }
}
