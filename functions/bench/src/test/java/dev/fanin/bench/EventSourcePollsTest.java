package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EventSourcePollsTest {

    @Test
    void aMappingReceivesOncePerPollerAndLongPoll() {
        assertThat(EventSourcePolls.FANIN_INPUT.over(Duration.ofMinutes(1))).isEqualTo(15);
        assertThat(EventSourcePolls.FANIN_TIMERS.over(Duration.ofMinutes(1))).isEqualTo(6);
        // Two pollers' 9 s make no whole poll; their 10 s make one.
        assertThat(EventSourcePolls.FANIN_TIMERS.over(Duration.ofSeconds(9))).isZero();
        assertThat(EventSourcePolls.FANIN_TIMERS.over(Duration.ofSeconds(10))).isEqualTo(1);
    }

    @Test
    void aBaselinePollsItsQueueAsFaninPollsItsInput() {
        assertThat(EventSourcePolls.BASELINE).isEqualTo(EventSourcePolls.FANIN_INPUT);
    }

    @Test
    void faninPollsOnItsInputAndItsTimerQueue() {
        // A day: 5 pollers on the input queue and 2 on the timer queue, 4,320 receives each.
        assertThat(EventSourcePolls.fanin(Duration.ofDays(1))).isEqualTo(7 * 4_320);
    }

    @Test
    void aDayOfIdlePollingCostsWhatSqsBillsForItsRequests() {
        double dollars = EventSourcePolls.fanin(Duration.ofDays(1)) * PriceTable.usEast1().perMillionSqsRequests() / 1e6;

        assertThat(dollars).isBetween(0.0120, 0.0122);
    }
}
