package dev.fanin.core.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.WindowSpec;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class WindowAssignerProperties {

    private static final long YEAR_3000 = 32_503_680_000_000L;

    @Property
    void tumblingEventIsInExactlyOneAlignedWindow(@ForAll @LongRange(min = 0, max = YEAR_3000) long t,
                                                  @ForAll @IntRange(min = 1, max = 86_400_000) int size,
                                                  @ForAll @IntRange(min = 0, max = 86_400_000) int offset) {
        List<Interval> windows = WindowAssigner.assign(new WindowSpec.Tumbling(Duration.ofMillis(size), Duration.ofMillis(offset)), t);

        assertThat(windows).hasSize(1);
        Interval window = windows.get(0);
        assertThat(window.contains(t)).isTrue();
        assertThat(window.lengthMillis()).isEqualTo(size);
        assertThat(Math.floorMod(window.startMillis() - offset, (long) size)).isZero();
    }

    @Property
    void slidingEventIsInEveryAlignedWindowContainingItAndNoOther(@ForAll @LongRange(min = 0, max = YEAR_3000) long t,
                                                                  @ForAll @IntRange(min = 1, max = 100_000) int slide,
                                                                  @ForAll @IntRange(min = 1, max = 20) int windowsPerEvent) {
        long size = (long) slide * windowsPerEvent;
        List<Interval> windows = WindowAssigner.assign(new WindowSpec.Sliding(Duration.ofMillis(size), Duration.ofMillis(slide)), t);

        assertThat(windows).hasSize(windowsPerEvent);
        for (int i = 0; i < windows.size(); i++) {
            Interval window = windows.get(i);
            assertThat(window.contains(t)).isTrue();
            assertThat(window.lengthMillis()).isEqualTo(size);
            assertThat(Math.floorMod(window.startMillis(), (long) slide)).isZero();
            if (i > 0) {
                assertThat(window.startMillis()).isEqualTo(windows.get(i - 1).startMillis() + slide);
            }
        }
        // The aligned neighbours just outside the list do not contain t.
        long before = windows.get(0).startMillis() - slide;
        long after = windows.get(windows.size() - 1).startMillis() + slide;
        assertThat(new Interval(before, before + size).contains(t)).isFalse();
        assertThat(new Interval(after, after + size).contains(t)).isFalse();
    }
}
