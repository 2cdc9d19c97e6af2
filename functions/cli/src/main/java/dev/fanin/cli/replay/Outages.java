package dev.fanin.cli.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Consumer outages of the simulated input queue ({@code --outage}): while one lasts, the event source hands nothing
 * to the ingest function and messages wait in the queue; when it ends, the backlog is delivered in random order, in
 * full batches spread evenly over {@code --backlog-shuffle}, as SQS delivers a standard queue's backlog. Timers and
 * the schedule keep running through an outage (only the input queue's consumers stop).
 */
final class Outages {

    /** One outage: {@code [startMillis, endMillis)} of the simulated clock. */
    record Outage(long startMillis, long endMillis) {
        boolean covers(long millis) {
            return millis >= startMillis && millis < endMillis;
        }
    }

    /** An outage as the command line gives it: an offset from the trace's first arrival and a length. */
    record Spec(Duration offset, Duration length) {

        Spec {
            if (offset.isNegative() || length.isNegative() || length.isZero()) {
                throw new IllegalArgumentException("--outage OFFSET+LENGTH needs OFFSET >= 0 and LENGTH > 0, was " + offset + "+" + length);
            }
        }

        /** Parses {@code OFFSET+LENGTH}, each a duration such as {@code 30s} or {@code 10m}. */
        static Spec parse(String text) {
            int plus = text.indexOf('+');
            if (plus <= 0 || plus == text.length() - 1) {
                throw new IllegalArgumentException("--outage takes OFFSET+LENGTH (e.g. 1m+10m: from 1 minute after the first"
                        + " message, for 10 minutes), was \"" + text + "\"");
            }
            return new Spec(dev.fanin.core.config.Durations.parse(text.substring(0, plus).trim()),
                    dev.fanin.core.config.Durations.parse(text.substring(plus + 1).trim()));
        }
    }

    private final List<Outage> outages;
    private final long shuffleMillis;
    private final long seed;

    Outages(List<Spec> specs, long traceStartMillis, Duration shuffle, long seed) {
        List<Outage> list = new ArrayList<>();
        for (Spec s : specs) {
            long start = traceStartMillis + s.offset().toMillis();
            list.add(new Outage(start, start + s.length().toMillis()));
        }
        this.outages = List.copyOf(list);
        this.shuffleMillis = shuffle.toMillis();
        this.seed = seed;
    }

    /** The outage under way at {@code millis}, if any. */
    Outage at(long millis) {
        for (Outage o : outages) {
            if (o.covers(millis)) {
                return o;
            }
        }
        return null;
    }

    /** When the last backlog has been handed over. */
    long lastDeliveryMillis() {
        return outages.stream().mapToLong(o -> o.endMillis() + shuffleMillis).max().orElse(Long.MIN_VALUE);
    }

    /**
     * The backlog of {@code outage} (messages that arrived during it, in arrival order) as the queue delivers it:
     * shuffled, in chunks of {@code batchSize} made visible at instants spread evenly over the shuffle window.
     */
    List<Delivery> deliver(Outage outage, List<Delivery> backlog, int batchSize) {
        List<Delivery> shuffled = new ArrayList<>(backlog);
        Collections.shuffle(shuffled, new Random(seed * 31 + outage.startMillis()));
        int batches = Math.max(1, (shuffled.size() + batchSize - 1) / batchSize);
        List<Delivery> out = new ArrayList<>();
        for (int i = 0; i < shuffled.size(); i++) {
            out.add(shuffled.get(i).visibleAt(outage.endMillis() + (i / batchSize) * shuffleMillis / batches));
        }
        return out;
    }

    /** A message that would become visible again during an outage (a retry, a duplicate) waits for its end. */
    long deferred(long visibleAtMillis, String messageId) {
        Outage o = at(visibleAtMillis);
        if (o == null) {
            return visibleAtMillis;
        }
        long offset = shuffleMillis == 0 ? 0 : Math.floorMod(new Random(seed ^ messageId.hashCode() ^ visibleAtMillis).nextLong(), shuffleMillis);
        return o.endMillis() + offset;
    }
}
