package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InvocationProbeTest {

    @Test
    void crashesBeforeTheChosenCall() {
        InvocationProbe probe = InvocationProbe.crashingAt(2, false);
        probe.beforeCall("a");
        probe.afterSuccess("a");
        assertThatThrownBy(() -> probe.beforeCall("b")).isInstanceOf(SimulatedCrash.class).hasMessageContaining("before call 2");
        assertThat(probe.crashed()).isTrue();
    }

    @Test
    void crashesAfterTheChosenCallTookEffect() {
        InvocationProbe probe = InvocationProbe.crashingAt(1, true);
        probe.beforeCall("a");
        assertThatThrownBy(() -> probe.afterSuccess("a")).isInstanceOf(SimulatedCrash.class).hasMessageContaining("took effect");
    }

    @Test
    void aFailedChosenCallMovesTheCrashToTheNextCall() {
        InvocationProbe probe = InvocationProbe.crashingAt(1, true);
        probe.beforeCall("a");
        probe.afterFailure();
        assertThat(probe.crashed()).isFalse();
        assertThatThrownBy(() -> probe.beforeCall("b")).isInstanceOf(SimulatedCrash.class);
    }

    @Test
    void countingNeverCrashes() {
        InvocationProbe probe = InvocationProbe.counting();
        for (int i = 0; i < 5; i++) {
            probe.beforeCall("x");
            probe.afterSuccess("x");
        }
        assertThat(probe.calls()).isEqualTo(5);
        assertThat(probe.crashed()).isFalse();
    }
}
