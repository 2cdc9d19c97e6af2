package dev.fanin.sim;

import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.window.WindowRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decides, from the run's seeded random source, where faults strike, and keeps the ledger of what was injected. The
 * port decorators call {@link #beforeCall} and {@link #afterCall} around every port call; a crash thrown before a call
 * means the call never happened, after it means its effect happened and the worker died before the next step.
 *
 * <p>Faults are only injected inside an invocation ({@link #enter}/{@link #exit}); the invariant checks read the
 * store directly. Each fault is attributed to the windows the call concerned, or recorded as pipeline-wide, so the
 * closure check can allow one lease and one sweep period per fault that could have delayed a window.
 */
public final class Faults {

    /** How long a slow port call takes (a throttled call and its retries): two in a batch outlive half a lease. */
    public static final long SLOW_CALL = 8_000;

    /** Runs one other worker's invocation nested inside the current one (simulated concurrency). */
    public interface Interleaver {
        void runAnother();

        /** The emitter stalls past the lease: advance time and let another worker sweep. */
        void stallPastLease();
    }

    private final Random random;
    private final FaultRates rates;
    private final long expectedCalls;
    private Interleaver interleaver;
    private int depth;
    /** By invocation depth, the faults that can fail it injected since it started ({@link #failingFaultsHere}). */
    private final long[] failingAt = new long[64];
    private long calls;
    private int crashes;
    private int throttles;
    private int failedEmits;
    private int slowEmits;
    private int slowCalls;
    private int interleavings;
    private int lostTimers;
    private int lostDeletes;
    private final Map<WindowRef, Integer> byWindow = new HashMap<>();
    private final List<Long> pipelineWide = new ArrayList<>();
    /** When each slow call started (true time, in order): the one clock stood still for everything else meanwhile. */
    private final List<Long> slowCallTimes = new ArrayList<>();
    private final SimClock clock;

    /**
     * @param expectedCalls an estimate of the port calls of the whole run, to spread {@code rates.crashes()} evenly
     */
    public Faults(Random random, FaultRates rates, long expectedCalls, SimClock clock) {
        this.random = random;
        this.rates = rates;
        this.expectedCalls = Math.max(1, expectedCalls);
        this.clock = clock;
    }

    public void interleaver(Interleaver i) {
        this.interleaver = i;
    }

    public void enter() {
        depth++;
        if (depth < failingAt.length) {
            failingAt[depth] = 0;
        }
    }

    public void exit() {
        depth--;
    }

    public boolean inInvocation() {
        return depth > 0;
    }

    public Random random() {
        return random;
    }

    /** Before a port call: maybe let another worker run first, maybe crash, maybe throttle (if the call can be). */
    public void beforeCall(String op, Collection<WindowRef> refs, boolean throttleable) {
        if (depth == 0) {
            return;
        }
        calls++;
        if (depth == 1 && interleaver != null && random.nextDouble() < rates.interleave()) {
            interleavings++;
            interleaver.runAnother();
        }
        if (rates.slowCall() > 0 && random.nextDouble() < rates.slowCall()) {
            slowCalls++;
            attribute(refs);
            slowCallTimes.add(clock.millis());
            clock.advanceTo(clock.millis() + SLOW_CALL);
        }
        maybeCrash("before " + op, refs);
        if (throttleable && random.nextDouble() < rates.throttle()) {
            throttles++;
            failing();
            attribute(refs);
            throw new StoreUnavailableException("simulated throttling of " + op, null);
        }
    }

    /** After a port call took effect: maybe crash before the next step. */
    public void afterCall(String op, Collection<WindowRef> refs) {
        if (depth == 0) {
            return;
        }
        maybeCrash("after " + op, refs);
    }

    public boolean failEmitEntry(WindowRef ref) {
        if (depth == 0 || random.nextDouble() >= rates.failedEmit()) {
            return false;
        }
        failedEmits++;
        failing();
        attribute(List.of(ref));
        return true;
    }

    public void maybeStallEmitter(Collection<WindowRef> refs) {
        if (depth == 1 && interleaver != null && random.nextDouble() < rates.slowEmit()) {
            slowEmits++;
            failing();
            attribute(refs);
            interleaver.stallPastLease();
        }
    }

    public boolean loseTimer(WindowRef ref) {
        if (depth == 0 || random.nextDouble() >= rates.lostTimer()) {
            return false;
        }
        lostTimers++;
        return true;
    }

    /** Whether SQS "forgets" a delete, so the processed message is delivered again. */
    public boolean loseDelete() {
        if (random.nextDouble() >= rates.lostDelete()) {
            return false;
        }
        lostDeletes++;
        return true;
    }

    public boolean doubleSweep() {
        return random.nextDouble() < rates.doubleSweep();
    }

    private void maybeCrash(String where, Collection<WindowRef> refs) {
        long remainingCalls = Math.max(1, expectedCalls - calls);
        double p = Math.min(0.05, Math.max(0, rates.crashes() - crashes) / (double) remainingCalls);
        if (random.nextDouble() < p) {
            crashes++;
            attribute(refs);
            throw new SimulatedCrash(where);
        }
    }

    private void attribute(Collection<WindowRef> refs) {
        if (refs.isEmpty()) {
            pipelineWide.add(clock.millis());
        }
        for (WindowRef r : refs) {
            byWindow.merge(r, 1, Integer::sum);
        }
    }

    /** Faults injected in calls that concerned this window. */
    public int faultsOf(WindowRef ref) {
        return byWindow.getOrDefault(ref, 0);
    }

    /** Faults injected in pipeline-wide calls (watermark, due buckets, sinks) within [from, to]. */
    public int pipelineWideFaultsBetween(long from, long to) {
        if (from > to) {
            return 0;
        }
        // Appended in time order (the clock is monotone), so two binary searches count the range.
        return firstAfter(pipelineWide, to) - firstAtOrAfter(pipelineWide, from);
    }

    /**
     * Slow calls that started within [from, to], whatever they concerned. The simulation runs one invocation at a time
     * on one clock, so a slow call delays every invocation in flight (the sweep holding a window's claim while it
     * visits the next entry, its flush) and every one due meanwhile (the schedule's next sweep) by {@link #SLOW_CALL}.
     */
    public int slowCallsBetween(long from, long to) {
        if (from > to) {
            return 0;
        }
        return firstAfter(slowCallTimes, to) - firstAtOrAfter(slowCallTimes, from);
    }

    private static int firstAtOrAfter(List<Long> times, long t) {
        int lo = 0;
        int hi = times.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times.get(mid) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int firstAfter(List<Long> times, long t) {
        return t == Long.MAX_VALUE ? times.size() : firstAtOrAfter(times, t + 1);
    }

    /**
     * Faults injected into the running invocation itself (not into one interleaved with it) that can make it fail: a
     * throttle, a failed emission, an emission stalled past its lease.
     */
    public long failingFaultsHere() {
        return depth < failingAt.length ? failingAt[depth] : 0;
    }

    private void failing() {
        if (depth < failingAt.length) {
            failingAt[depth]++;
        }
    }

    public long calls() {
        return calls;
    }

    public int crashes() {
        return crashes;
    }

    public int throttles() {
        return throttles;
    }

    public int failedEmits() {
        return failedEmits;
    }

    public int slowEmits() {
        return slowEmits;
    }

    public int slowCalls() {
        return slowCalls;
    }

    public int interleavings() {
        return interleavings;
    }

    public int lostTimers() {
        return lostTimers;
    }

    public int lostDeletes() {
        return lostDeletes;
    }
}
