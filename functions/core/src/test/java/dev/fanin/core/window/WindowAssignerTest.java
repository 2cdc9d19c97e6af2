package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WindowAssignerTest {

    private static final WindowSpec TUMBLING_10 = new WindowSpec.Tumbling(Duration.ofMillis(10), Duration.ZERO);

    @ParameterizedTest(name = "t={0} -> [{1},{2})")
    @CsvSource({
            "0, 0, 10",
            "9, 0, 10",    // end - 1 is still inside
            "10, 10, 20",  // end belongs to the next window
            "-1, -10, 0",  // floor, not truncation, below zero
    })
    void tumblingWindowIsHalfOpen(long t, long start, long end) {
        assertThat(WindowAssigner.assign(TUMBLING_10, t)).containsExactly(new Interval(start, end));
    }

    @Test
    void eventAtEndBelongsToNextWindow() {
        Interval first = WindowAssigner.assign(TUMBLING_10, 5).get(0);
        assertThat(WindowAssigner.assign(TUMBLING_10, first.endMillis())).containsExactly(new Interval(10, 20));
        assertThat(first.contains(first.endMillis())).isFalse();
    }

    @ParameterizedTest(name = "offset 3, t={0} -> [{1},{2})")
    @CsvSource({
            "2, -7, 3",
            "3, 3, 13",
            "12, 3, 13",
            "13, 13, 23",
    })
    void tumblingOffsetShiftsAlignment(long t, long start, long end) {
        WindowSpec spec = new WindowSpec.Tumbling(Duration.ofMillis(10), Duration.ofMillis(3));
        assertThat(WindowAssigner.assign(spec, t)).containsExactly(new Interval(start, end));
    }

    @Test
    void tumblingOffsetLargerThanSizeActsModuloSize() {
        WindowSpec spec = new WindowSpec.Tumbling(Duration.ofMillis(10), Duration.ofMillis(23));
        assertThat(WindowAssigner.assign(spec, 5)).containsExactly(new Interval(3, 13));
    }

    @Test
    void dailyWindowsAlignToUtcMidnight() {
        WindowSpec daily = new WindowSpec.Tumbling(Duration.ofDays(1), Duration.ZERO);
        long noonJan2 = Duration.ofDays(19_725).toMillis() + Duration.ofHours(12).toMillis();
        Interval window = WindowAssigner.assign(daily, noonJan2).get(0);
        assertThat(window.startMillis()).isEqualTo(Duration.ofDays(19_725).toMillis());
        assertThat(window.lengthMillis()).isEqualTo(Duration.ofDays(1).toMillis());
    }

    @Test
    void slidingEventIsInSizeOverSlideWindowsAscending() {
        WindowSpec spec = new WindowSpec.Sliding(Duration.ofMillis(10), Duration.ofMillis(5));
        assertThat(WindowAssigner.assign(spec, 7)).containsExactly(new Interval(0, 10), new Interval(5, 15));
    }

    @ParameterizedTest(name = "sliding 10/5, t={0}: first window starts at {1}")
    @CsvSource({
            "4, -5",   // end - 1 of [-5, 5)
            "5, 0",    // at the end of [-5, 5): that window is left, [5, 15) is entered
            "9, 0",
            "10, 5",
    })
    void slidingBoundaries(long t, long firstStart) {
        WindowSpec spec = new WindowSpec.Sliding(Duration.ofMillis(10), Duration.ofMillis(5));
        assertThat(WindowAssigner.assign(spec, t)).containsExactly(new Interval(firstStart, firstStart + 10),
                new Interval(firstStart + 5, firstStart + 15));
    }

    @Test
    void slidingWithSlideEqualToSizeIsTumbling() {
        WindowSpec spec = new WindowSpec.Sliding(Duration.ofMillis(10), Duration.ofMillis(10));
        assertThat(WindowAssigner.assign(spec, 19)).isEqualTo(WindowAssigner.assign(TUMBLING_10, 19));
    }

    @Test
    void sessionsAreNotAssignedPerEvent() {
        assertThatThrownBy(() -> WindowAssigner.assign(new WindowSpec.Session(Duration.ofSeconds(5)), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SessionPlanner");
    }

    @Test
    void slidingSizeMustBeMultipleOfSlide() {
        assertThatThrownBy(() -> WindowAssigner.assign(new WindowSpec.Sliding(Duration.ofMillis(10), Duration.ofMillis(3)), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple");
    }

    @Test
    void zeroSizeIsRejected() {
        assertThatThrownBy(() -> WindowAssigner.assign(new WindowSpec.Tumbling(Duration.ZERO, Duration.ZERO), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void windowsThatWouldOverflowAreRejectedNotWrapped() {
        assertThatThrownBy(() -> WindowAssigner.assign(TUMBLING_10, Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too late");
        assertThat(WindowAssigner.assign(TUMBLING_10, Long.MAX_VALUE - 10)).hasSize(1)
                .allSatisfy(w -> assertThat(w.contains(Long.MAX_VALUE - 10)).isTrue());
    }

    @Test
    void extremeNegativeTimesAreRejectedNotWrapped() {
        // Long.MIN_VALUE + 3 lies 5 ms into its 10 ms window, whose start is not representable.
        assertThatThrownBy(() -> WindowAssigner.assign(TUMBLING_10, Long.MIN_VALUE + 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too early");
        assertThatThrownBy(() -> WindowAssigner.assign(new WindowSpec.Sliding(Duration.ofMillis(10), Duration.ofMillis(5)), Long.MIN_VALUE + 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too early");
        List<Interval> windows = WindowAssigner.assign(TUMBLING_10, Long.MIN_VALUE + 9);
        assertThat(windows.get(0).contains(Long.MIN_VALUE + 9)).isTrue();
    }
}
