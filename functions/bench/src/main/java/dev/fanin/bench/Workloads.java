package dev.fanin.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The benchmark's workload profiles, deterministic for a seed. Every profile goes to a bundled sample pipeline
 * (alert-storm, file-uploads) or to the benchmark's {@code late-rollup} (a one-minute tumbling rollup with five
 * minutes of allowed lateness). Event times trail arrival times by a small delay unless the profile says otherwise.
 */
public final class Workloads {

    public static final List<String> NAMES = List.of("alert-storm", "sparse", "file-uploads", "hot-key", "late-heavy");
    static final Instant START = Instant.parse("2026-11-29T00:00:00Z");

    private Workloads() { }

    /** @param scale 1.0 for the documented sizes; smaller for quick runs and tests */
    public static Workload named(String name, double scale, long seed) {
        Random random = new Random(seed);
        return switch (name) {
            case "alert-storm" -> alertStorm(scale, random);
            case "sparse" -> sparse(scale);
            case "file-uploads" -> fileUploads(scale, random);
            case "hot-key" -> hotKey(scale, random);
            case "late-heavy" -> lateHeavy(scale, random);
            case LATE_SESSIONS -> lateSessions(scale, random);
            default -> {
                int perKey = sparseEventsPerKey(name);
                if (perKey < 1) {
                    throw unknown(name);
                }
                yield sparse(scale, perKey);
            }
        };
    }

    /** The profiles with tables of their own, run only when named: a window growing to 50,000 events, the sustained hot key. */
    static final String GROW = "grow";
    static final String HOT_KEY_SUSTAINED = "hot-key-15m";
    /** A profile run only when named, with the default profiles' tables: too-late events in a session pipeline. */
    static final String LATE_SESSIONS = "late-sessions";

    /** @throws IllegalArgumentException naming the profiles when {@code name} is none of them */
    static void checkKnown(String name) {
        if (!NAMES.contains(name) && sparseEventsPerKey(name) < 1 && historyKeys(name) < 1 && !name.equals(GROW)
                && !name.equals(HOT_KEY_SUSTAINED) && !name.equals(LATE_SESSIONS)) {
            throw unknown(name);
        }
    }

    private static IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("unknown profile \"" + name + "\"; profiles: " + String.join(", ", NAMES)
                + ", sparse-N for sparse traffic with N events per key (1 to 20), history / history-N for 7 days of one or N keys (1 to 100), "
                + GROW + " (a tumbling and a session window growing to 50,000 events), " + HOT_KEY_SUSTAINED
                + " (one key at 5,000 events/s for 15 minutes) or " + LATE_SESSIONS + " (the alert storm with late alerts)");
    }

    /**
     * The history profile (issue 14): {@code keys} keys, each with a 3-alert session every 2 minutes (alerts 2 s apart)
     * for {@code days} days, and 5% of alerts sent again 3 to 10 minutes later (a producer's duplicate, which lands
     * in a session already closed and committed). What a batch costs must not grow with how long its key has lived.
     */
    public static Workload history(int keys, double days, long seed) {
        return history(keys, days, seed, 3);
    }

    /** As {@link #history(int, double, long)}, with {@code alerts} alerts in each session (2 s apart, at most 45). */
    static Workload history(int keys, double days, long seed, int alerts) {
        if (alerts < 1 || alerts > 45) {
            throw new IllegalArgumentException("alerts per session must be in [1, 45] (the 30 s gap before the next, 2 minutes on), was " + alerts);
        }
        Random random = new Random(seed);
        List<Arrival> arrivals = new ArrayList<>();
        long sessions = Math.round(days * 24 * 30);
        int n = 0;
        for (long s = 0; s < sessions; s++) {
            for (int k = 0; k < keys; k++) {
                Instant sessionStart = START.plus(Duration.ofMinutes(2 * s)).plusMillis(k * 11_000L);
                for (int i = 0; i < alerts; i++) {
                    Instant at = sessionStart.plusSeconds(2L * i);
                    String body = alert(n++, k, at.minusMillis(300), random);
                    arrivals.add(new Arrival(at, "m-" + arrivals.size(), body));
                    if (random.nextDouble() < 0.05) {
                        arrivals.add(new Arrival(at.plusSeconds(180 + random.nextInt(420)), "m-" + arrivals.size(), body));
                    }
                }
            }
        }
        String name = keys == 1 ? "history" : "history-" + keys;
        return new Workload(name, "%d key(s), a 3-alert session every 2 minutes for %.1f days, 5%% of alerts sent again 3-10 min later"
                .formatted(keys, days), sorted(arrivals));
    }

    /**
     * One sensor's readings at {@code perSecond}, {@code events} of them, event times 200 ms behind arrival, typed
     * {@code type} (the {@link BenchPipelines#GROW} pipeline that matches it): one window that grows to {@code events}
     * (issue 14, item 4: the grow and hot-key-15m profiles).
     */
    static Workload oneSensor(String name, String type, int events, int perSecond) {
        Random random = new Random(events);
        List<Arrival> arrivals = new ArrayList<>(events);
        long stepMicros = 1_000_000L / perSecond;
        for (int i = 0; i < events; i++) {
            Instant at = START.plusSeconds(1).plusNanos(i * stepMicros * 1_000);
            String body = String.format(Locale.ROOT, "{\"type\":\"%s\",\"id\":\"r-%d\",\"sensor\":\"sensor-1\",\"value\":%d,\"at\":\"%s\"}",
                    type, i, random.nextInt(1_000), at.minusMillis(200));
            arrivals.add(new Arrival(at, "m-" + i, body));
        }
        return new Workload(name, "%,d readings of one sensor at %,d/s".formatted(events, perSecond), arrivals);
    }

    /** The keys of a profile named {@code history} (1) or {@code history-N} (1 to 100), else 0. */
    static int historyKeys(String name) {
        if (name.equals("history")) {
            return 1;
        }
        if (!name.matches("history-[0-9]{1,3}")) {
            return 0;
        }
        int n = Integer.parseInt(name.substring("history-".length()));
        return n >= 1 && n <= 100 ? n : 0;
    }

    /** N for a profile named {@code sparse-N} (1 to 20), else 0. */
    private static int sparseEventsPerKey(String name) {
        if (!name.matches("sparse-[0-9]{1,2}")) {
            return 0;
        }
        int n = Integer.parseInt(name.substring("sparse-".length()));
        return n <= 20 ? n : 0;
    }

    /**
     * Storms of 100 alerts/s for 30 s over 200 resource keys drawn Zipf(1.2), three minutes of quiet between storms
     * (sessions end after 30 s), and 10% of messages delivered twice (same event id, new message id).
     */
    static Workload alertStorm(double scale, Random random) {
        return storms(scale, random, 0, "alert-storm", "bursts of 100 alerts/s over 200 keys (Zipf 1.2), 10% duplicates, sessions of 30 s gap");
    }

    /**
     * The alert storm with 20% of its alerts sent 10 s to 6 minutes later than the others: the alert-storm pipeline's
     * allowed lateness is 2 minutes, so some correct a session and some are too late, their time in a session or in
     * the quiet between storms, where no session holds it (the verdicts a key's live item keeps; docs/SEMANTICS.md
     * "Lateness").
     */
    static Workload lateSessions(double scale, Random random) {
        return storms(scale, random, 0.20, LATE_SESSIONS, "the alert storm with 20% of alerts sent 10 s-6 min late (lateness 2 min)");
    }

    /** The alert storms, {@code lateShare} of the alerts sent 10 s to 6 minutes late (no random draw for it at 0). */
    private static Workload storms(double scale, Random random, double lateShare, String name, String description) {
        Zipf keys = new Zipf(200, 1.2);
        List<Arrival> arrivals = new ArrayList<>();
        int storms = Math.max(1, (int) Math.round(6 * scale));
        int n = 0;
        for (int storm = 0; storm < storms; storm++) {
            Instant stormStart = START.plus(Duration.ofSeconds(210L * storm));
            for (int i = 0; i < 3_000; i++) {
                Instant at = stormStart.plusMillis(i * 10L + random.nextInt(10));
                int key = keys.sample(random);
                Instant happened = at.minusMillis(random.nextInt(2_000));
                if (lateShare > 0 && random.nextDouble() < lateShare) {
                    happened = happened.minusMillis(10_000 + random.nextInt(350_000));
                }
                String body = alert(n++, key, happened, random);
                arrivals.add(new Arrival(at, "m-" + arrivals.size(), body));
                if (random.nextDouble() < 0.10) {
                    arrivals.add(new Arrival(at.plusMillis(200 + random.nextInt(800)), "m-" + arrivals.size(), body));
                }
            }
        }
        return new Workload(name, description, sorted(arrivals));
    }

    /** 2,000 keys in turn at 100 alerts/s, three alerts per key 20 s apart: every batch touches ten different windows. */
    static Workload sparse(double scale) {
        return sparse(scale, 3);
    }

    /**
     * As {@link #sparse(double)} with {@code perKey} alerts per key (each key's window then holds that many events):
     * the profile {@code sparse-N}, for where fanin and the baseline cross as windows grow.
     */
    static Workload sparse(double scale, int perKey) {
        int keys = Math.max(10, (int) Math.round(2_000 * scale));
        List<Arrival> arrivals = new ArrayList<>();
        Random unused = new Random(0);
        for (int round = 0; round < perKey; round++) {
            for (int k = 0; k < keys; k++) {
                Instant at = START.plus(Duration.ofSeconds(20L * round)).plusMillis(k * 10L);
                arrivals.add(new Arrival(at, "m-" + arrivals.size(), alert(arrivals.size(), k, at.minusMillis(300), unused)));
            }
        }
        String name = perKey == 3 ? "sparse" : "sparse-" + perKey;
        return new Workload(name, "%,d keys in turn, one event per key per batch, %d per key 20 s apart".formatted(keys, perKey),
                sorted(arrivals));
    }

    /**
     * 40 upload prefixes of 250 files each, one S3 notification per message; a prefix uploads over 60 s, prefixes
     * start 15 s apart (four in flight at once); the manifest {@code _manifest-250.json} lands between 5 s before
     * and 2 s after the last file.
     */
    static Workload fileUploads(double scale, Random random) {
        int prefixes = Math.max(1, (int) Math.round(40 * scale));
        List<Arrival> arrivals = new ArrayList<>();
        for (int p = 0; p < prefixes; p++) {
            Instant begin = START.plus(Duration.ofSeconds(15L * p));
            long last = 0;
            for (int f = 0; f < 250; f++) {
                long offset = random.nextInt(60_000);
                last = Math.max(last, offset);
                String key = String.format(Locale.ROOT, "uploads/batch-%d/part-%03d.csv", p, f);
                arrivals.add(new Arrival(begin.plusMillis(offset), "m-" + arrivals.size(), s3(key, 40_000 + random.nextInt(20_000), begin.plusMillis(offset - 300))));
            }
            long manifestAt = last - 5_000 + random.nextInt(7_000);
            String manifest = String.format(Locale.ROOT, "uploads/batch-%d/_manifest-250.json", p);
            arrivals.add(new Arrival(begin.plusMillis(manifestAt), "m-" + arrivals.size(), s3(manifest, 900, begin.plusMillis(manifestAt - 300))));
        }
        return new Workload("file-uploads", "40 prefixes x 250 files + manifest sentinel, 4 prefixes in flight, 1 S3 record per message",
                sorted(arrivals));
    }

    /** 100 alerts/s for 200 s; 90% on one key (one session of about 18,000 events), the rest over 100 keys. */
    static Workload hotKey(double scale, Random random) {
        int events = Math.max(100, (int) Math.round(20_000 * scale));
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            Instant at = START.plusMillis(i * 10L + random.nextInt(10));
            int key = random.nextDouble() < 0.9 ? 0 : 1 + random.nextInt(100);
            arrivals.add(new Arrival(at, "m-" + i, alert(i, key, at.minusMillis(random.nextInt(1_000)), random)));
        }
        return new Workload("hot-key", "100 alerts/s for 200 s, 90% on one key", sorted(arrivals));
    }

    /**
     * 50 readings/s from 50 sensors for 5 minutes into one-minute tumbling windows; 30% arrive late by 10 s to
     * 8 minutes (allowed lateness is 5 minutes, so some are too late and go to the side output).
     */
    static Workload lateHeavy(double scale, Random random) {
        int events = Math.max(100, (int) Math.round(15_000 * scale));
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            Instant at = START.plusMillis(i * 20L + random.nextInt(20));
            long lag = random.nextDouble() < 0.30 ? 10_000 + random.nextInt(470_000) : random.nextInt(3_000);
            String body = String.format(Locale.ROOT, "{\"type\":\"reading\",\"id\":\"r-%d\",\"sensor\":\"sensor-%02d\",\"value\":%d,\"at\":\"%s\"}",
                    i, random.nextInt(50), random.nextInt(1_000), at.minusMillis(lag));
            arrivals.add(new Arrival(at, "m-" + i, body));
        }
        return new Workload("late-heavy", "50 readings/s, 50 sensors, 1-min tumbling windows, 30% late by 10 s-8 min (lateness 5 min)",
                sorted(arrivals));
    }

    private static String alert(int n, int key, Instant time, Random random) {
        String region = switch (key % 4) {
            case 0 -> "eu-west-1";
            case 1 -> "us-east-1";
            case 2 -> "us-west-2";
            default -> "ap-southeast-2";
        };
        String resource = String.format(Locale.ROOT, "i-%017x", (long) key * 1_000 + random.nextInt(50));
        return String.format(Locale.ROOT, "{\"version\":\"0\",\"id\":\"%08d-269e-4d37-b2a7-4de452e6b438\",\"detail-type\":\"Resource Alert\","
                        + "\"source\":\"custom.alerts\",\"account\":\"111122223333\",\"time\":\"%s\",\"region\":\"%s\","
                        + "\"resources\":[\"arn:aws:ec2:%s:111122223333:instance/%s\"],\"detail\":{\"service\":\"svc-%03d\","
                        + "\"resource\":\"%s\",\"severity\":\"HIGH\",\"message\":\"CPUUtilization above 95%% for 3 datapoints\"}}",
                n, time, region, region, resource, key, resource);
    }

    private static String s3(String key, long size, Instant time) {
        return String.format(Locale.ROOT, "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"eu-west-1\","
                + "\"eventTime\":\"%s\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"fanin-uploads\","
                + "\"bucket\":{\"name\":\"acme-ingest\",\"arn\":\"arn:aws:s3:::acme-ingest\"},\"object\":{\"key\":\"%s\",\"size\":%d,"
                + "\"eTag\":\"67d1364a715d2f1404b0e915b45b618e\"}}}]}", time, key, size);
    }

    private static List<Arrival> sorted(List<Arrival> arrivals) {
        List<Arrival> copy = new ArrayList<>(arrivals);
        copy.sort(Comparator.comparing(Arrival::at));
        return copy;
    }

    /** Zipf over ranks 0..n-1: rank r has weight 1/(r+1)^s. */
    static final class Zipf {
        private final double[] cumulative;

        Zipf(int n, double s) {
            cumulative = new double[n];
            double sum = 0;
            for (int r = 0; r < n; r++) {
                sum += 1 / Math.pow(r + 1, s);
                cumulative[r] = sum;
            }
            for (int r = 0; r < n; r++) {
                cumulative[r] /= sum;
            }
        }

        int sample(Random random) {
            double u = random.nextDouble();
            int low = 0;
            int high = cumulative.length - 1;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (cumulative[mid] < u) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low;
        }
    }
}
