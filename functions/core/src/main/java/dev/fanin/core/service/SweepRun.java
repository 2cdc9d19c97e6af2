package dev.fanin.core.service;

import java.time.Instant;

/** One sweep run's budget and figures, across pipelines and shards (shards may run in parallel). */
final class SweepRun {
    private final SweepPlan plan;
    private int visited;
    private int claimed;
    private int overdue;
    private long oldest;
    private long pastDeadline;
    private boolean exhausted;

    SweepRun(SweepPlan plan) {
        this.plan = plan;
    }

    /** Whether the budget or the time is spent (and if so, marks the run exhausted). */
    synchronized boolean spent(Instant now) {
        if (plan.stops(visited, now)) {
            exhausted = true;
        }
        return exhausted;
    }

    /** Takes one visit from the budget, unless it is spent. */
    synchronized boolean take(Instant now) {
        if (spent(now)) {
            return false;
        }
        visited++;
        return true;
    }

    synchronized boolean exhausted() {
        return exhausted;
    }

    synchronized int visited() {
        return visited;
    }

    synchronized void addClaimed(int n) {
        claimed += n;
    }

    synchronized void addFigures(int pipelineOverdue, long pipelineOldest, long pipelinePastDeadline) {
        overdue += pipelineOverdue;
        oldest = Math.max(oldest, pipelineOldest);
        pastDeadline = Math.max(pastDeadline, pipelinePastDeadline);
    }

    synchronized SweepReport report() {
        return new SweepReport(visited, claimed, overdue, oldest, pastDeadline, exhausted);
    }
}
