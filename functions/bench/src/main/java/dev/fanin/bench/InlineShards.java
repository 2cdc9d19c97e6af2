package dev.fanin.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * The sweeper's shard threads as the bench runs them: each shard's task runs when it is submitted, one after the
 * other, so that a run is deterministic, and the DynamoDB wait each task's calls add is recorded. {@link #wallMillis}
 * then gives the time the run takes on the deployed sweeper's threads ({@code SweepParallelism}): tasks in
 * submission order, each on the thread that is free first, as a fixed thread pool takes them from its queue.
 */
final class InlineShards extends AbstractExecutorService {

    private final DoubleSupplier waitSoFar;
    private final List<Double> taskWaits = new ArrayList<>();

    /** @param waitSoFar the DynamoDB wait billed so far, in milliseconds */
    InlineShards(DoubleSupplier waitSoFar) {
        this.waitSoFar = waitSoFar;
    }

    @Override
    public void execute(Runnable task) {
        double before = waitSoFar.getAsDouble();
        task.run();
        taskWaits.add(waitSoFar.getAsDouble() - before);
    }

    /**
     * The wall time of a run that waited {@code runWait} milliseconds on its calls in all, the tasks recorded since the
     * last call among them, on {@code threads} threads; the tasks' record starts again.
     */
    double wallMillis(double runWait, int threads) {
        double inTasks = taskWaits.stream().mapToDouble(Double::doubleValue).sum();
        double wall = runWait - inTasks + makespan(taskWaits, threads);
        taskWaits.clear();
        return wall;
    }

    /** How long {@code tasks} take on {@code threads} threads, each task in order on the thread free first. */
    static double makespan(List<Double> tasks, int threads) {
        PriorityQueue<Double> freeAt = new PriorityQueue<>();
        for (int i = 0; i < threads; i++) {
            freeAt.add(0.0);
        }
        double end = 0;
        for (double task : tasks) {
            double done = freeAt.poll() + task;
            freeAt.add(done);
            end = Math.max(end, done);
        }
        return end;
    }

    @Override
    public void shutdown() {
    }

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }
}
