package dev.fanin.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * The simulated producers: bursts of events per key for each enabled {@link Shape}, generated lazily in send-time
 * order so a million-event run never holds its whole trace. Faults of the producers and the transport are applied
 * here: duplicate producers (the same event id sent again in another message), reordering (delayed sends), late and
 * very late events, idle periods without any traffic, and one flood of unique keys.
 *
 * <p>Also the ground truth: every event identity produced, and for each manifest sentinel its event time (a
 * sentinel that does not count as an event is accounted for by the window whose expected count it set).
 */
public final class Workload {

    /** A message to put on the queue at {@code at} (true processing time, ms). */
    public record Send(long at, long seq, SimMessage message) { }

    private final SimulationConfig config;
    private final Random random;
    private final long start;
    private final PriorityQueue<Send> pending = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final Map<Identity, Long> sentinels = new HashMap<>();
    private final Set<Identity> produced = new HashSet<>();
    /** Per identity, the longest time between its event time and a send of it (the producer's delay, not the queue's). */
    private final Map<Identity, Long> sendDelay = new HashMap<>();
    private long nextBurstAt;
    private long seq;
    private long events;
    private long messages;
    private long duplicates;
    private long late;
    private long veryLate;
    private long reordered;
    private boolean flooded;
    private long lastSendAt;

    public Workload(SimulationConfig config, Random random, long start) {
        this.config = config;
        this.random = random;
        this.start = start;
        this.nextBurstAt = start;
    }

    /** The earliest time something is sent, or {@link Long#MAX_VALUE} when the producers are done. */
    public long nextSendAt() {
        long burst = producing() ? nextBurstAt : Long.MAX_VALUE;
        return Math.min(burst, pending.isEmpty() ? Long.MAX_VALUE : pending.peek().at);
    }

    /** Everything sent at or before {@code now}, in send order. */
    public List<Send> due(long now) {
        while (producing() && nextBurstAt <= now) {
            burst(nextBurstAt);
            nextBurstAt = skipIdle(nextBurstAt + exponential(meanBurstGapMillis()));
        }
        if (!flooded && config.flood() > 0 && now >= start + config.floodAfter().toMillis()) {
            flooded = true;
            flood(now);
        }
        List<Send> out = new ArrayList<>();
        while (!pending.isEmpty() && pending.peek().at <= now) {
            out.add(pending.poll());
        }
        return out;
    }

    public boolean done() {
        return !producing() && pending.isEmpty() && (flooded || config.flood() == 0);
    }

    private boolean producing() {
        return events < config.events();
    }

    private long meanBurstGapMillis() {
        double eventsPerBurst = 6.0;
        return Math.max(1, Math.round(1000.0 * eventsPerBurst / config.eventsPerSecond()));
    }

    private long exponential(long mean) {
        return Math.max(1, Math.round(-mean * Math.log(1 - random.nextDouble())));
    }

    private long skipIdle(long t) {
        long every = config.idleEvery().toMillis();
        long idle = config.idleFor().toMillis();
        if (every <= 0 || idle <= 0) {
            return t;
        }
        long into = Math.floorMod(t - start, every);
        return into >= every - idle ? t + (every - into) : t;
    }

    private void burst(long at) {
        Shape shape = config.shapes().get(random.nextInt(config.shapes().size()));
        int k = random.nextInt(config.keys());
        switch (shape) {
            case SESSION -> alerts(at, k);
            case TUMBLING_EXPECTED -> shards(at, k);
            case SESSION_SENTINEL_HOLD -> uploads(at, k);
            case TUMBLING -> readings(at, k);
            default -> throw new IllegalStateException(shape.name());
        }
    }

    private void alerts(long at, int k) {
        int n = 1 + random.nextInt(12);
        long t = at;
        for (int i = 0; i < n; i++) {
            t += random.nextInt(5_000);
            send(t, List.of(alert(t, String.format("%012d", k), "svc-" + (k % 5))));
        }
    }

    private Event alert(long eventTime, String account, String service) {
        String id = "a-" + (++seq);
        String body = "{\"version\":\"0\",\"id\":\"" + id + "\",\"detail-type\":\"Resource Alert\",\"source\":\"custom.alerts\",\"account\":\""
                + account + "\",\"time\":\"" + Instant.ofEpochMilli(eventTime) + "\",\"region\":\"eu-west-1\",\"resources\":[],"
                + "\"detail\":{\"service\":\"" + service + "\",\"resource\":\"i-" + (seq % 97) + "\",\"severity\":\"HIGH\"}}";
        return new Event(body, new Identity(Shape.SESSION.pipeline(), account + "|eu-west-1|" + service, id), eventTime, false);
    }

    private void readings(long at, int k) {
        int n = 1 + random.nextInt(6);
        long t = at;
        for (int i = 0; i < n; i++) {
            t += random.nextInt(20_000);
            String id = "r-" + (++seq);
            String body = "{\"type\":\"reading\",\"sensor\":\"sensor-" + k + "\",\"id\":\"" + id + "\",\"at\":\"" + Instant.ofEpochMilli(t) + "\"}";
            send(t, List.of(new Event(body, new Identity(Shape.TUMBLING.pipeline(), "sensor-" + k, id), t, false)));
        }
    }

    private void shards(long at, int k) {
        int n = 2 + random.nextInt(11);
        String job = "job-" + k;
        String run = "run-" + (++seq);
        int withheld = random.nextDouble() < 0.1 ? random.nextInt(n) : -1;
        for (int shard = 0; shard < n; shard++) {
            long t = at + random.nextInt(240_000);
            String body = "{\"type\":\"shard.done\",\"jobId\":\"" + job + "\",\"runId\":\"" + run + "\",\"shard\":" + shard + ",\"shardCount\":" + n
                    + ",\"rows\":" + random.nextInt(10_000) + ",\"durationMs\":" + random.nextInt(60_000) + ",\"finishedAt\":\"" + Instant.ofEpochMilli(t) + "\"}";
            Event e = new Event(body, new Identity(Shape.TUMBLING_EXPECTED.pipeline(), job + "|" + run, Integer.toString(shard)), t, false);
            if (shard == withheld) {
                // A straggler: past the 30-minute deadline, so after the partial fire (a too-late event), or never.
                if (random.nextBoolean()) {
                    sendAt(t + 35 * 60_000L + random.nextInt(600_000), List.of(e));
                }
                continue;
            }
            send(t, List.of(e));
        }
    }

    private void uploads(long at, int k) {
        int n = 1 + random.nextInt(6);
        String bucket = "bucket-" + (k % 10);
        String prefix = "p" + k + "/b" + (++seq);
        int withheld = random.nextDouble() < 0.1 ? random.nextInt(n) : -1;
        List<Event> pair = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = at + random.nextInt(180_000);
            Event e = s3(bucket, prefix + "/part-" + i + ".csv", t, false);
            if (i == withheld) {
                // Held incomplete until this one arrives late (within the session) or the 2 h deadline fires it flagged.
                if (random.nextBoolean()) {
                    sendAt(t + 20 * 60_000L + random.nextInt(1_200_000), List.of(e));
                }
                continue;
            }
            pair.add(e);
            if (pair.size() == 2 || random.nextDouble() < 0.7) {
                send(t, pair);
                pair = new ArrayList<>();
            }
        }
        if (!pair.isEmpty()) {
            send(pair.get(pair.size() - 1).eventTime, pair);
        }
        long manifestAt = at + 60_000 + random.nextInt(180_000);
        send(manifestAt, List.of(s3(bucket, prefix + "/_manifest-" + n + ".json", manifestAt, true)));
    }

    private Event s3(String bucket, String objectKey, long eventTime, boolean sentinel) {
        String record = "{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"eu-west-1\",\"eventTime\":\""
                + Instant.ofEpochMilli(eventTime) + "\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
                + "\"bucket\":{\"name\":\"" + bucket + "\"},\"object\":{\"key\":\"" + objectKey + "\",\"size\":" + (1 + random.nextInt(100_000))
                + ",\"sequencer\":\"" + Long.toHexString(++seq) + "\"}}}";
        String key = bucket + "|" + objectKey.substring(0, objectKey.lastIndexOf('/'));
        return new Event(record, new Identity(Shape.SESSION_SENTINEL_HOLD.pipeline(), key, objectKey), eventTime, sentinel);
    }

    private void flood(long now) {
        for (int i = 0; i < config.flood(); i++) {
            long t = now + random.nextInt(5_000);
            Event e = alert(t, "flood-" + i, "svc-flood");
            sendAt(t + random.nextInt(1_000), List.of(e));
        }
    }

    /** One event (or S3 record) and what the ground truth needs of it. */
    private record Event(String body, Identity identity, long eventTime, boolean sentinel) { }

    /** The longest delay of a send that is neither late nor very late: latency plus reordering. */
    static final long ON_TIME_DELAY_MILLIS = 1_500 + 45_000;

    /** Sends with the producer-side faults: latency, reordering, lateness, and a duplicate producer. */
    private void send(long eventTime, List<Event> records) {
        long at = eventTime + random.nextInt(1_500);
        double r = random.nextDouble();
        if (r < config.veryLate()) {
            veryLate++;
            at += 20 * 60_000L + random.nextInt(40 * 60_000);
        } else if (r < config.veryLate() + config.late()) {
            late++;
            at += 45_000 + random.nextInt(105_000);
        } else if (r < config.veryLate() + config.late() + config.reorder()) {
            reordered++;
            at += random.nextInt(45_000);
        }
        sendAt(at, records);
        if (random.nextDouble() < config.duplicates()) {
            duplicates++;
            sendAt(at + random.nextInt(600_000), records);
        }
    }

    private void sendAt(long at, List<Event> records) {
        String body;
        if (records.get(0).identity.pipeline().equals(Shape.SESSION_SENTINEL_HOLD.pipeline())) {
            StringBuilder b = new StringBuilder("{\"Records\":[");
            for (int i = 0; i < records.size(); i++) {
                b.append(i == 0 ? "" : ",").append(records.get(i).body);
            }
            body = b.append("]}").toString();
        } else {
            body = records.get(0).body;
        }
        List<Identity> ids = new ArrayList<>();
        for (Event e : records) {
            ids.add(e.identity);
            sendDelay.merge(e.identity, at - e.eventTime, Math::max);
            if (produced.add(e.identity)) {
                events++;
            }
            if (e.sentinel) {
                sentinels.put(e.identity, e.eventTime);
            }
        }
        messages++;
        lastSendAt = Math.max(lastSendAt, at);
        String id = "m-" + messages;
        pending.add(new Send(at, messages, new SimMessage(id, body, ids)));
    }

    public Set<Identity> produced() {
        return produced;
    }

    /** The longest delay between the event time of {@code id} and one of its sends (ms). */
    public long sendDelay(Identity id) {
        return sendDelay.getOrDefault(id, Long.MAX_VALUE);
    }

    public Map<Identity, Long> sentinels() {
        return sentinels;
    }

    public long events() {
        return events;
    }

    public long messages() {
        return messages;
    }

    public long duplicates() {
        return duplicates;
    }

    public long late() {
        return late;
    }

    public long veryLate() {
        return veryLate;
    }

    public long reordered() {
        return reordered;
    }

    public long lastSendAt() {
        return lastSendAt;
    }
}
