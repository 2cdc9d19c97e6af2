package dev.fanin.bench;

import java.util.List;

/**
 * A named event stream: the messages in arrival order, and what the profile is meant to exercise.
 *
 * @param name     profile name on the command line
 * @param summary  one line for the report
 * @param arrivals in arrival order
 */
public record Workload(String name, String summary, List<Arrival> arrivals) {

    public Workload {
        arrivals = List.copyOf(arrivals);
    }
}
