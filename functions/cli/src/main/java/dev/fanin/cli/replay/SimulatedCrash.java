package dev.fanin.cli.replay;

/**
 * Thrown by {@link ReplayInterceptor} at the chosen AWS call of an invocation to simulate the process dying there.
 * An {@link Error}, not an exception, so that no {@code catch (RuntimeException)} in the handlers or the core can
 * turn the death into a graceful failure: nothing after the crash point runs, exactly as after a SIGKILL.
 */
final class SimulatedCrash extends Error {

    SimulatedCrash(String where) {
        super("simulated crash " + where, null, false, false);
    }
}
