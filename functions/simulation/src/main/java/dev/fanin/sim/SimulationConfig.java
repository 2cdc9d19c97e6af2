package dev.fanin.sim;

import java.time.Duration;
import java.util.List;

/**
 * One simulation run. Everything random derives from {@code seed}: the same configuration gives the same run.
 *
 * @param seed               the random seed (printed with every failure)
 * @param shapes             which sample pipelines receive traffic
 * @param events             distinct events to produce (duplicate copies come on top)
 * @param keys               key space per shape (alert accounts, shard jobs, upload prefixes)
 * @param eventsPerSecond    mean producer rate in simulated time
 * @param duplicates         share of messages a duplicate producer sends again (same event ids, new message)
 * @param reorder            share of messages delayed by up to 45 s (out of event-time order)
 * @param late               share of messages delayed by 45 s to 2.5 min (late: corrections or too late)
 * @param veryLate           share of messages delayed by 20 to 60 min (beyond any allowed lateness)
 * @param flood              unique keys sent in one 5-second burst (0: no flood)
 * @param floodAfter         when the flood starts
 * @param maxOpenWindows     every pipeline's open-window bound
 * @param idleEvery          period of the idle cycle (zero: no idle periods)
 * @param idleFor            idle time at the end of each cycle, without any new burst
 * @param workers            virtual workers (Lambda containers) sharing the store
 * @param maxSkew            each worker's clock is off by a uniform skew in [-maxSkew, +maxSkew]
 * @param visibilityTimeout  the input queue's visibility timeout
 * @param maxReceiveCount    the input queue's redrive count (and fanin's own dead-letter threshold)
 * @param sweepPeriod        the schedule of the sweeper
 * @param faults             fault rates
 * @param outageEvery        period of the consumer-outage cycle (zero: no outages)
 * @param outageFor          at the end of each cycle, for this long, no consumer receives from the input queue; the
 *                           backlog is then delivered in random order (timers and the schedule keep running)
 */
public record SimulationConfig(long seed, List<Shape> shapes, int events, int keys, double eventsPerSecond, double duplicates, double reorder,
                               double late, double veryLate, int flood, Duration floodAfter, int maxOpenWindows, Duration idleEvery,
                               Duration idleFor, int workers, Duration maxSkew, Duration visibilityTimeout, int maxReceiveCount,
                               Duration sweepPeriod, FaultRates faults, Duration outageEvery, Duration outageFor) {

    public SimulationConfig(long seed, List<Shape> shapes, int events, int keys, double eventsPerSecond, double duplicates, double reorder,
                            double late, double veryLate, int flood, Duration floodAfter, int maxOpenWindows, Duration idleEvery,
                            Duration idleFor, int workers, Duration maxSkew, Duration visibilityTimeout, int maxReceiveCount,
                            Duration sweepPeriod, FaultRates faults) {
        this(seed, shapes, events, keys, eventsPerSecond, duplicates, reorder, late, veryLate, flood, floodAfter, maxOpenWindows, idleEvery,
                idleFor, workers, maxSkew, visibilityTimeout, maxReceiveCount, sweepPeriod, faults, Duration.ZERO, Duration.ZERO);
    }

    public SimulationConfig {
        shapes = List.copyOf(shapes);
        if (shapes.isEmpty()) {
            throw new IllegalArgumentException("at least one shape");
        }
    }

    /** A small run with every fault kind on: a few thousand events, a flood against a low open-window bound. */
    public static SimulationConfig bounded(long seed, List<Shape> shapes) {
        return new SimulationConfig(seed, shapes, 3_000, 40, 5, 0.10, 0.20, 0.03, 0.01, 150, Duration.ofMinutes(3), 120,
                Duration.ofMinutes(20), Duration.ofMinutes(6), 4, Duration.ofSeconds(2), Duration.ofSeconds(60), 5,
                Duration.ofMinutes(1), FaultRates.all(40));
    }

    /**
     * The bounded run with consumer outages: every 5 minutes the consumers stop for 3, and the backlog then comes in
     * random order (docs/RELIABILITY.md, "The fault model").
     */
    public static SimulationConfig outages(long seed, List<Shape> shapes) {
        return bounded(seed, shapes).withOutages(Duration.ofMinutes(5), Duration.ofMinutes(3));
    }

    public SimulationConfig withEvents(int n) {
        return new SimulationConfig(seed, shapes, n, keys, eventsPerSecond, duplicates, reorder, late, veryLate, flood, floodAfter,
                maxOpenWindows, idleEvery, idleFor, workers, maxSkew, visibilityTimeout, maxReceiveCount, sweepPeriod, faults, outageEvery, outageFor);
    }

    public SimulationConfig withFaults(FaultRates f) {
        return new SimulationConfig(seed, shapes, events, keys, eventsPerSecond, duplicates, reorder, late, veryLate, flood, floodAfter,
                maxOpenWindows, idleEvery, idleFor, workers, maxSkew, visibilityTimeout, maxReceiveCount, sweepPeriod, f, outageEvery, outageFor);
    }

    public SimulationConfig withOutages(Duration every, Duration length) {
        return new SimulationConfig(seed, shapes, events, keys, eventsPerSecond, duplicates, reorder, late, veryLate, flood, floodAfter,
                maxOpenWindows, idleEvery, idleFor, workers, maxSkew, visibilityTimeout, maxReceiveCount, sweepPeriod, faults, every, length);
    }

    /** When the consumer outage under way at {@code millis} (true time) ends, or {@code millis} itself if none is. */
    public long outageEndsAt(long startMillis, long millis) {
        long every = outageEvery.toMillis();
        long length = outageFor.toMillis();
        if (every <= 0 || length <= 0) {
            return millis;
        }
        long into = Math.floorMod(millis - startMillis, every);
        return into >= every - length ? millis + (every - into) : millis;
    }
}
