package dev.fanin.core.trigger;

import static dev.fanin.core.trigger.PipelineFixture.pipeline;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TriggersTest {

    private static final Interval WINDOW = new Interval(0, 60_000);
    private static final Instant NOW = Instant.ofEpochMilli(1_000_000);
    private static final Instant DEADLINE = NOW.plusSeconds(600);
    private static final PipelineConfig PLAIN = pipeline().build();

    private static WindowFacts facts(WindowKind kind, long events, Completeness completeness, Instant deadline, boolean full) {
        return new WindowFacts(kind, WINDOW, events, completeness, deadline, full);
    }

    private static WindowFacts facts(WindowKind kind) {
        return facts(kind, 1, Completeness.initial(PLAIN), DEADLINE, false);
    }

    @ParameterizedTest(name = "{0}: watermark {1} -> holds={2}")
    @CsvSource({
            "TUMBLING, 59999, false",  // end - 1
            "TUMBLING, 60000, true",   // end
            "SLIDING, 60000, true",
            "SESSION, 59999, false",   // a session's end is last event + gap
            "SESSION, 60000, true",
    })
    void eventTimeTriggerFiresWhenWatermarkReachesEnd(WindowKind kind, long watermark, boolean holds) {
        EnumSet<CloseReason> holding = Triggers.holding(PLAIN, facts(kind), watermark, NOW);

        CloseReason reason = kind == WindowKind.SESSION ? CloseReason.SESSION_GAP : CloseReason.WATERMARK;
        assertThat(holding).isEqualTo(holds ? EnumSet.of(reason) : EnumSet.noneOf(CloseReason.class));
    }

    @ParameterizedTest(name = "{0} events with count 3 -> holds={1}")
    @CsvSource({"2, false", "3, true", "4, true"})
    void countTriggerAtThreshold(long events, boolean holds) {
        PipelineConfig config = pipeline().count(3).build();
        WindowFacts facts = facts(WindowKind.TUMBLING, events, Completeness.initial(config), DEADLINE, false);

        assertThat(Triggers.holding(config, facts, 0, NOW).contains(CloseReason.COUNT)).isEqualTo(holds);
    }

    @Test
    void noCountTriggerWithoutThreshold() {
        assertThat(Triggers.holding(PLAIN, facts(WindowKind.TUMBLING, 1_000_000, Completeness.initial(PLAIN), DEADLINE, false), 0, NOW))
                .isEmpty();
    }

    @ParameterizedTest(name = "now = deadline {0} ms -> holds={1}")
    @CsvSource({"-1, false", "0, true", "1, true"})
    void hardLifetimeInProcessingTime(long offsetMillis, boolean holds) {
        WindowFacts facts = facts(WindowKind.TUMBLING);

        assertThat(Triggers.holding(PLAIN, facts, 0, DEADLINE.plusMillis(offsetMillis)).contains(CloseReason.HARD_LIFETIME)).isEqualTo(holds);
    }

    @Test
    void sizeLimitWhenBoundReached() {
        WindowFacts full = facts(WindowKind.TUMBLING, 1, Completeness.initial(PLAIN), DEADLINE, true);

        assertThat(Triggers.holding(PLAIN, full, 0, NOW)).containsExactly(CloseReason.SIZE_LIMIT);
    }

    @Test
    void expectedCompleteWhenStaticCountReached() {
        PipelineConfig config = pipeline().expected(new ExpectedSpec(2, null, null, 0)).build();
        Completeness one = Completeness.initial(config).observe(config, EventFixture.event("a", 1));
        Completeness two = one.observe(config, EventFixture.event("b", 2));

        assertThat(Triggers.holding(config, facts(WindowKind.TUMBLING, 1, one, DEADLINE, false), 0, NOW)).isEmpty();
        assertThat(Triggers.holding(config, facts(WindowKind.TUMBLING, 2, two, DEADLINE, false), 0, NOW))
                .containsExactly(CloseReason.EXPECTED_COMPLETE);
    }

    @Test
    void winnerIsTheFirstOfThePrecedenceList() {
        assertThat(Triggers.winner(EnumSet.of(CloseReason.HARD_LIFETIME, CloseReason.WATERMARK, CloseReason.COUNT))).contains(CloseReason.COUNT);
        assertThat(Triggers.winner(EnumSet.of(CloseReason.SIZE_LIMIT, CloseReason.SESSION_GAP))).contains(CloseReason.SESSION_GAP);
        assertThat(Triggers.winner(EnumSet.of(CloseReason.SENTINEL, CloseReason.EXPECTED_COMPLETE))).contains(CloseReason.EXPECTED_COMPLETE);
        assertThat(Triggers.winner(EnumSet.noneOf(CloseReason.class))).isEmpty();
    }

    @Test
    void precedenceRanksEveryTriggerOnce() {
        // Every reason holding() can return is ranked exactly once; the decisions that are no triggers are not.
        assertThat(Triggers.PRECEDENCE).doesNotHaveDuplicates()
                .containsExactlyInAnyOrder(EnumSet.complementOf(EnumSet.of(CloseReason.SESSION_LIMIT, CloseReason.LATE_CORRECTION,
                        CloseReason.OPERATOR)).toArray(CloseReason[]::new));
        for (int i = 0; i < Triggers.PRECEDENCE.size(); i++) {
            for (int j = i + 1; j < Triggers.PRECEDENCE.size(); j++) {
                CloseReason first = Triggers.PRECEDENCE.get(i);
                assertThat(Triggers.winner(EnumSet.of(Triggers.PRECEDENCE.get(j), first))).contains(first);
            }
        }
    }

    @Test
    void racingTriggersAllReportedAndOneWins() {
        PipelineConfig config = pipeline().count(1).build();
        WindowFacts facts = facts(WindowKind.TUMBLING, 1, Completeness.initial(config), NOW, false);

        EnumSet<CloseReason> holding = Triggers.holding(config, facts, 60_000, NOW);

        assertThat(holding).containsExactly(CloseReason.COUNT, CloseReason.WATERMARK, CloseReason.HARD_LIFETIME);
        assertThat(Triggers.winner(holding)).contains(CloseReason.COUNT);
    }

    @ParameterizedTest(name = "watermark {0} -> next check at now + {1} ms")
    @CsvSource({
            "50000, 10000",   // 10 s of event time left: check in 10 s of processing time
            "59999, 1",       // end - 1
            "60000, 0",       // end reached: due now
            "90000, 0",       // past the end: due now, never in the past
    })
    void nextCheckWhenWatermarkCatchesUp(long watermark, long delayMillis) {
        assertThat(Triggers.nextCheck(PLAIN, facts(WindowKind.TUMBLING), watermark, NOW)).isEqualTo(NOW.plusMillis(delayMillis));
    }

    @Test
    void nextCheckNeverAfterHardDeadline() {
        Instant soon = NOW.plusMillis(500);
        WindowFacts facts = facts(WindowKind.TUMBLING, 1, Completeness.initial(PLAIN), soon, false);

        assertThat(Triggers.nextCheck(PLAIN, facts, 50_000, NOW)).isEqualTo(soon);
        assertThat(Triggers.nextCheck(PLAIN, facts, Long.MIN_VALUE, NOW)).isEqualTo(soon);
    }

    @Test
    void nextCheckWithDeadlineAlreadyPastIsTheDeadline() {
        Instant past = NOW.minusSeconds(1);
        WindowFacts facts = facts(WindowKind.SESSION, 1, Completeness.initial(PLAIN), past, false);

        assertThat(Triggers.nextCheck(PLAIN, facts, 0, NOW)).isEqualTo(past);
    }

    @Test
    void nextCheckForSessionUsesLastEventPlusGap() {
        PipelineConfig sessions = pipeline().window(new WindowSpec.Session(Duration.ofSeconds(30))).build();
        WindowFacts facts = new WindowFacts(WindowKind.SESSION, new Interval(10_000, 45_000), 2, Completeness.initial(sessions), DEADLINE, false);

        assertThat(Triggers.nextCheck(sessions, facts, 40_000, NOW)).isEqualTo(NOW.plusMillis(5_000));
    }
}
