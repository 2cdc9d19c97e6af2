package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.LiveSessions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The too-late verdicts a key's live item keeps for events no session held: bounded, forgotten in time, and covered by its TTL. */
class TooLateLedgerTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void aVerdictIsAChangeAndTheItemLivesAsLongAsIt() {
        LiveChange change = new LiveChange(LiveSessions.none("p", "k"), Map.of(), T0);
        assertThat(change.changed()).isFalse();

        assertThat(change.recordTooLate("d!", T0.plusSeconds(3600))).isZero();

        assertThat(change.changed()).isTrue();
        LiveSessions built = change.build();
        assertThat(built.tooLate()).containsExactly(Map.entry("d!", T0.plusSeconds(3600)));
        assertThat(built.expiresAt()).isEqualTo(T0.plusSeconds(3600));
    }

    @Test
    void pastTheBoundTheVerdictsForgottenSoonestGoFirst() {
        LiveChange change = new LiveChange(LiveSessions.none("p", "k"), Map.of(), T0);
        int dropped = 0;
        for (int i = 0; i <= LiveSessions.MAX_TOO_LATE; i++) {
            dropped += change.recordTooLate(i + "!", T0.plusSeconds(1000 + i));
        }

        assertThat(dropped).isEqualTo(1);
        assertThat(change.build().tooLate()).hasSize(LiveSessions.MAX_TOO_LATE).doesNotContainKey("0!").containsKey("1!");
    }

    /** A review: only a new verdict let old ones go, so an active key rewrote a full ledger with every write. */
    @Test
    void verdictsWhoseTimeHasComeLeaveWithTheNextWriteWhateverItIs() {
        LiveSessions loaded = new LiveSessions("p", "k", 3, List.of(), null, Map.of("old!", T0, "kept!", T0.plusSeconds(2)), T0);

        LiveChange change = new LiveChange(loaded, Map.of(), T0.plusSeconds(1));

        assertThat(change.changed()).as("forgetting alone writes nothing").isFalse();
        assertThat(change.build().tooLate()).containsOnlyKeys("kept!");
    }
}
