package dev.fanin.sim;

import java.util.ArrayList;
import java.util.List;

/** Invariant violations found in a run: all counted, the first {@value #KEPT} kept verbatim for the report. */
public final class Violations {

    static final int KEPT = 25;

    private final List<String> first = new ArrayList<>();
    private long count;

    public void add(String violation) {
        count++;
        if (first.size() < KEPT) {
            first.add(violation);
        }
    }

    public long count() {
        return count;
    }

    public List<String> first() {
        return List.copyOf(first);
    }
}
