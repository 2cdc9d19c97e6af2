package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The replay's schedule: the sweeper runs on minute boundaries of the simulated clock. */
class ReplayClockTest {

    @Test
    void sweepTicksAreMinuteBoundaries() {
        assertThat(Replay.ceilMinute(60_000)).isEqualTo(60_000);
        assertThat(Replay.ceilMinute(60_001)).isEqualTo(120_000);
        assertThat(Replay.ceilMinute(59_999)).isEqualTo(60_000);
    }
}
