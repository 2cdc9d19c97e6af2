package dev.fanin.sim;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The figures and the verdict of one run. {@link #ok()} is true exactly when no invariant was violated; the
 * {@link #summary()} starts with the seed, so any failure message built from it says how to reproduce the run.
 */
public record SimulationReport(
        long seed,
        List<Shape> shapes,
        long events,
        long messages,
        long duplicatesSent,
        long reorderedSent,
        long lateSent,
        long veryLateSent,
        long windows,
        long windowsMerged,
        long revisionsCommitted,
        long emissions,
        long partialFires,
        long portCalls,
        long crashes,
        long throttles,
        long failedEmits,
        long slowEmits,
        long slowCalls,
        long interleavings,
        long sameKeyInterleavings,
        long lostTimers,
        long lostDeletes,
        long redeliveries,
        long takeovers,
        long duplicateFlushesSuppressed,
        long admissionRefusals,
        long invocationErrors,
        long counted,
        long lateSideOutput,
        long deadLettered,
        long lost,
        long doubleCounted,
        long overlappingSessions,
        long duplicateCommits,
        long windowsLeftOpen,
        long windowsClosedLate,
        Map<String, Long> peakOpenWindows,
        long itemsAfterTtl,
        Map<String, Integer> deadLetterReasons,
        Duration simulatedTime,
        Duration wallTime,
        long violationCount,
        List<String> violations) {

    public boolean ok() {
        return violationCount == 0;
    }

    public String summary() {
        StringBuilder b = new StringBuilder();
        b.append("seed ").append(seed).append(", shapes ").append(shapes).append('\n');
        line(b, "events (distinct)", events);
        line(b, "messages sent", messages);
        line(b, "  duplicate producer sends", duplicatesSent);
        line(b, "  reordered / late / very late sends", reorderedSent + " / " + lateSent + " / " + veryLateSent);
        line(b, "windows opened (merged away)", windows + " (" + windowsMerged + ")");
        line(b, "revisions committed", revisionsCommitted);
        line(b, "emissions (re-emissions included)", emissions);
        line(b, "partial fires (complete=false)", partialFires);
        line(b, "port calls (fault injection points)", portCalls);
        line(b, "crashes injected", crashes);
        line(b, "throttles / failed emits / stalled emits", throttles + " / " + failedEmits + " / " + slowEmits);
        line(b, "slow port calls (" + Faults.SLOW_CALL / 1_000 + " s each)", slowCalls);
        line(b, "interleaved invocations (on the same keys)", interleavings + " (" + sameKeyInterleavings + ")");
        line(b, "lost timers / lost deletes", lostTimers + " / " + lostDeletes);
        line(b, "redeliveries", redeliveries);
        line(b, "claim takeovers / duplicate flushes suppressed", takeovers + " / " + duplicateFlushesSuppressed);
        line(b, "admission refusals", admissionRefusals);
        line(b, "invocations failed by an exception", invocationErrors);
        line(b, "events counted", counted);
        line(b, "events in the late side output", lateSideOutput);
        line(b, "events dead-lettered", deadLettered);
        line(b, "dead-letter reasons", deadLetterReasons);
        line(b, "peak open windows", peakOpenWindows);
        line(b, "events lost", lost);
        line(b, "events double counted", doubleCounted);
        line(b, "overlapping sessions of a key", overlappingSessions);
        line(b, "duplicate commits", duplicateCommits);
        line(b, "windows left open", windowsLeftOpen);
        line(b, "windows closed after their bound", windowsClosedLate);
        line(b, "items left after the last TTL", itemsAfterTtl);
        line(b, "simulated time", simulatedTime);
        line(b, "wall time", wallTime.toMillis() + " ms");
        line(b, "violations", violationCount);
        for (String v : violations) {
            b.append("  - ").append(v).append('\n');
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String name, Object value) {
        b.append(String.format("%-48s %s%n", name, value));
    }
}
