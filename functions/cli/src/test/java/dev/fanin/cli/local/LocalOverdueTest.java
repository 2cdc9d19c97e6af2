package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `fanin local` reports a window as a problem only once it is open past its hard deadline. A day's window just after
 * midnight has a next check already passed (its visit found the watermark short of its end until the idle advance,
 * and wrote nothing), which made a run across midnight UTC exit 1 with everything right.
 */
class LocalOverdueTest {

    private static final Instant MIDNIGHT = Instant.parse("2026-12-07T00:00:00Z");

    private static Seen.Window window(String status, Instant due, Instant hardDeadline) {
        return new Seen.Window("shard-completions", "nightly-etl|b", "T001796515200000", status, due, 2, MIDNIGHT.minusSeconds(120),
                hardDeadline, null);
    }

    @Test
    void aWindowIsOverdueOnlyOpenPastItsHardDeadline() {
        Instant sweptBy = MIDNIGHT.plusSeconds(120);
        Seen.Window checkPassed = window("OPEN", MIDNIGHT.plusSeconds(10), MIDNIGHT.plusSeconds(1_680));
        Seen.Window pastDeadline = window("OPEN", MIDNIGHT.plusSeconds(10), MIDNIGHT.plusSeconds(60));
        Seen.Window closed = window("CLOSED", null, MIDNIGHT.plusSeconds(60));

        assertThat(LocalRun.overdue(List.of(checkPassed, pastDeadline, closed), sweptBy)).containsExactly(pastDeadline);
    }
}
