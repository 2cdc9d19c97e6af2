package dev.fanin.sim;

/**
 * How often each fault is injected. Probabilities are per port call (or per message, per timer) unless noted.
 *
 * @param crashes          how many crashes to inject over the run (spread evenly over the port calls; the achieved
 *                         number is reported, it may differ slightly)
 * @param throttle         a store or watermark call fails with {@code StoreUnavailableException} (throttling), a side
 *                         output or dead-letter send fails, before taking effect
 * @param failedEmit       one entry of an emission is reported failed by the target
 * @param slowEmit         an emission stalls past the claim's lease; another worker sweeps meanwhile (lease expiry)
 * @param interleave       before a port call, another worker runs one whole invocation (concurrent workers)
 * @param lostTimer        a timer message is lost when armed
 * @param lostDelete       a successfully processed message is not deleted (SQS redelivers it: at-least-once)
 * @param doubleSweep      the schedule fires twice (overlapping sweeps)
 * @param slowCall         a port call takes {@link Faults#SLOW_CALL} (throttled and retried): time passes inside the
 *                         invocation, so a batch can outlive half a claim's lease and its deadline
 */
public record FaultRates(int crashes, double throttle, double failedEmit, double slowEmit, double interleave, double lostTimer,
                         double lostDelete, double doubleSweep, double slowCall) {

    /** Every fault kind on, at rates that make each happen many times in a few thousand events. */
    public static FaultRates all(int crashes) {
        return new FaultRates(crashes, 0.01, 0.02, 0.01, 0.02, 0.05, 0.02, 0.05, 0.002);
    }

    public static FaultRates none() {
        return new FaultRates(0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
