package dev.fanin.sim;

/**
 * A simulated process death, thrown by the fault-injecting port decorators between two port calls. It is an
 * {@link Error} so that no {@code catch (RuntimeException)} in the services can swallow it: like a real crash, it ends
 * the whole invocation. The simulation catches it at the invocation boundary and treats the worker as dead: its
 * batch is not acknowledged and SQS redelivers the messages after the visibility timeout.
 */
public final class SimulatedCrash extends Error {

    public SimulatedCrash(String where) {
        super("simulated crash " + where, null, false, false);
    }
}
