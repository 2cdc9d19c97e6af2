package dev.fanin.sim;

import dev.fanin.core.window.WindowRef;

/** Reads a {@link WindowRef#aggregateId(int)} back into its window and revision (it is length-prefixed). */
final class AggregateIds {

    record Parsed(WindowRef ref, int revision) { }

    private AggregateIds() {
    }

    static Parsed parse(String aggregateId) {
        int colon = aggregateId.indexOf(':');
        int pLen = Integer.parseInt(aggregateId.substring(0, colon));
        String pipeline = aggregateId.substring(colon + 1, colon + 1 + pLen);
        int rest = colon + 1 + pLen + 1;
        int colon2 = aggregateId.indexOf(':', rest);
        int kLen = Integer.parseInt(aggregateId.substring(rest, colon2));
        String key = aggregateId.substring(colon2 + 1, colon2 + 1 + kLen);
        String tail = aggregateId.substring(colon2 + 1 + kLen + 1);
        int slash = tail.lastIndexOf("/r");
        return new Parsed(new WindowRef(pipeline, key, tail.substring(0, slash)), Integer.parseInt(tail.substring(slash + 2)));
    }
}
