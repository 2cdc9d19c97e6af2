package dev.fanin.it;

/**
 * The process dying at an injected point. An {@link Error}, so that no {@code catch (RuntimeException)} in the
 * services can swallow it: it unwinds the whole invocation, as a killed Lambda would stop mid-way.
 */
final class SimulatedCrash extends Error {

    SimulatedCrash(String where) {
        super("simulated crash " + where, null, false, false);
    }
}
