package dev.fanin.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs tasks on their own threads, released together by a barrier, and returns their results in order. */
final class Race {

    private Race() { }

    @SafeVarargs
    static <T> List<T> run(Callable<? extends T>... tasks) {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.length);
        CyclicBarrier start = new CyclicBarrier(tasks.length);
        try {
            List<Future<? extends T>> futures = new ArrayList<>();
            for (Callable<? extends T> task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return task.call();
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<? extends T> f : futures) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
            return results;
        } catch (Exception e) {
            throw new AssertionError("a racer failed", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
