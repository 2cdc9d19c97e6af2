package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InvocationDeadlineTest {

    private static final Instant NOW = Instant.parse("2026-11-29T09:47:00Z");

    @Test
    void longRunsKeepTheFixedMargin() {
        assertThat(InvocationDeadline.of(NOW, Duration.ofSeconds(60))).isEqualTo(NOW.plusSeconds(50));
        assertThat(InvocationDeadline.of(NOW, Duration.ofSeconds(900))).isEqualTo(NOW.plusSeconds(890));
    }

    @Test
    void theMarginIsAFifthUpToTenSeconds() {
        assertThat(InvocationDeadline.of(NOW, Duration.ofMillis(49_999))).as("a fifth is just under 10 s")
                .isEqualTo(NOW.plusMillis(49_999 - 9_999));
        assertThat(InvocationDeadline.of(NOW, Duration.ofSeconds(50))).as("a fifth is exactly 10 s").isEqualTo(NOW.plusSeconds(40));
        assertThat(InvocationDeadline.of(NOW, Duration.ofMillis(50_001))).as("above, the cap").isEqualTo(NOW.plusMillis(40_001));
        assertThat(InvocationDeadline.of(NOW, Duration.ofSeconds(10))).isEqualTo(NOW.plusSeconds(8));
    }

    @Test
    void nothingRemainingMeansNow() {
        assertThat(InvocationDeadline.of(NOW, Duration.ZERO)).isEqualTo(NOW);
        assertThat(InvocationDeadline.of(NOW, Duration.ofMillis(-5))).isEqualTo(NOW);
        assertThat(InvocationDeadline.of(NOW, Duration.ofMillis(1))).isEqualTo(NOW.plusMillis(1));
    }
}
