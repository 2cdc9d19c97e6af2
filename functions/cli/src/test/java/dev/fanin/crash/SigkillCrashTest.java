package dev.fanin.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.cli.replay.ReplayRun;
import dev.fanin.testkit.LocalAwsEndpoint;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test on real endpoints (issue 6.3): {@code fanin replay} runs in a child JVM against the shared local
 * endpoint and is killed with SIGKILL ({@link Process#destroyForcibly()}) at random moments, then restarted with
 * {@code --resume} on the same resources, {@code fanin.crash.kills} times (default 20, on two copies of the sample
 * traces: about 100 s, see docs/REPLAY.md), then left to finish. Its output must match a clean replay of the same
 * trace: every window finally counts what the clean replay counts (no event lost or counted twice; which revision
 * an event lands in may move with a lost timer, see {@link #finalRevisions}), every emission of an aggregate id is
 * identical, each window's revisions are 0..n, each emitted window is closed in the table and nothing is open, and
 * the late records and dead letters are the same (the side output is at-least-once: compared as sets).
 */
class SigkillCrashTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int KILLS = Integer.getInteger("fanin.crash.kills", 20);
    private static final int COPIES = Integer.getInteger("fanin.crash.copies", 2);
    private static final long SEED = Long.getLong("fanin.crash.seed", System.nanoTime());
    /** The longest life after ready; unset, a share of a clean replay's time ({@link #maxLifeMillis}). */
    private static final Integer MAX_LIFE_MILLIS = Integer.getInteger("fanin.crash.maxLifeMillis");
    /** Receives after which a message's batch is let finish (below the template's MaxReceiveCount, 5). */
    private static final int SPARE_AFTER = 3;

    @TempDir
    Path dir;

    @Test
    void aReplayKilledAndResumedManyTimesEmitsWhatACleanReplayEmits() throws Exception {
        System.err.println("SigkillCrashTest: seed " + SEED + " (-Dfanin.crash.seed=" + SEED + " repeats the kill moments), "
                + KILLS + " kills, " + COPIES + " copies of the sample traces");
        Path trace = CrashTrace.write(dir.resolve("crash-trace.jsonl"), COPIES);
        long cleanStart = System.nanoTime();
        ReplayRun clean = ReplayRun.run(trace, dir.resolve("clean"), 0, 0, 1);
        int maxLife = maxLifeMillis(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cleanStart));
        System.err.println("SigkillCrashTest: lives of up to " + maxLife + " ms after ready");
        Path out = dir.resolve("killed");
        String prefix = "ck" + UUID.randomUUID().toString().substring(0, 8) + "-";
        Random random = new Random(SEED);

        int kills = 0;
        int life = 0;
        while (kills < KILLS) {
            Process child = start(trace, out, prefix, ++life);
            awaitReady(child, life);
            awaitSparedBatchesDone(child, out);
            Thread.sleep(random.nextInt(maxLife));
            if (!child.isAlive()) {
                break;
            }
            child.destroyForcibly();
            child.waitFor();
            kills++;
        }
        Process last = start(trace, out, prefix, ++life);
        if (!last.waitFor(10, TimeUnit.MINUTES)) {
            last.destroyForcibly();
            fail("the last replay did not finish in 10 minutes; log: " + log(life));
        }
        assertThat(last.exitValue()).as("exit code of the last life; log: %s", log(life)).isZero();
        assertThat(kills).as("SIGKILLs before the replay finished (make the trace longer with -Dfanin.crash.copies)")
                .isGreaterThanOrEqualTo(KILLS);

        ReplayRun killed = ReplayRun.read(out);
        assertThat(killed.finished()).isTrue();

        Map<String, JsonNode> killedAggregates = killed.aggregatesById(); // fails if two emissions of one id differ
        Map<String, JsonNode> cleanAggregates = clean.aggregatesById();
        assertThat(finalRevisions(killedAggregates)).as("what each window finally counts, after %d SIGKILLs vs a clean replay", kills)
                .isEqualTo(finalRevisions(cleanAggregates));
        long identical = killedAggregates.entrySet().stream().filter(e -> e.getValue().equals(cleanAggregates.get(e.getKey()))).count();
        assertThat(revisionsPerWindow(killedAggregates)).allSatisfy((window, revisions) ->
                assertThat(revisions).as("revisions of %s: one aggregate id each, 0..n", window)
                        .isEqualTo(contiguous(revisions.size())));
        assertThat(killed.emittedWindowsNotClosed()).as("emitted windows not closed in the table").isEmpty();
        // Every window closed; slots a kill left taken may still be counted (they come back when their epoch retires).
        assertThat(killed.counter("openWindowsAtEnd")).as("windows still open (or with a due time)").isZero();
        assertThat(distinct(killed.lateRecords(), "eventId", "windowId")).isEqualTo(distinct(clean.lateRecords(), "eventId", "windowId"));
        assertThat(distinct(killed.deadLetterRecords(), "messageId", "reason"))
                .isEqualTo(distinct(clean.deadLetterRecords(), "messageId", "reason"));
        System.err.println("SigkillCrashTest: " + kills + " SIGKILLs over " + life + " lives; " + killedAggregates.size()
                + " aggregates in " + killed.emissions().size() + " emissions (clean replay: " + cleanAggregates.size()
                + "); every window's final revision counts what the clean replay counts; " + identical
                + " aggregates identical to the clean replay's except emittedAt");
    }

    /**
     * Lives short enough that {@link #KILLS} of them, at half the longest on average, do about half of what a clean
     * in-process replay does in {@code cleanMillis} (a child JVM, started cold, is slower still): the kills land all
     * over the replay and it does not finish before the last one, on a fast machine as on a slow one. At most 1.5 s.
     */
    private static int maxLifeMillis(long cleanMillis) {
        return MAX_LIFE_MILLIS != null ? MAX_LIFE_MILLIS : (int) Math.max(50, Math.min(1500, cleanMillis / KILLS));
    }

    private Process start(Path trace, Path out, String prefix, int life) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", classpath, "dev.fanin.cli.FaninCli", "replay",
                "--config", ReplayRun.CONFIG.toString(), "--trace", trace.toString(), "--out", out.toString(),
                "--prefix", prefix, "--resume", "--template", ReplayRun.REPO.resolve("template.yaml").toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("life-" + life + ".log").toFile());
        builder.environment().put("AWS_ENDPOINT_URL", LocalAwsEndpoint.shared().endpoint().toString());
        return builder.start();
    }

    private void awaitReady(Process child, int life) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            if (log(life).contains("replay: ready") || !child.isAlive()) {
                return;
            }
            Thread.sleep(50);
        }
        child.destroyForcibly();
        fail("life " + life + " did not get ready in 90 s; log: " + log(life));
    }

    /**
     * SQS moves a message received {@code MaxReceiveCount} times (5) to the dead-letter queue, so a batch in flight at
     * five kills in a row is redriven, as it should be, and the outcome differs from the clean replay by design (lives
     * shorter than a cold start's first step make that likely). Once a message has been received {@link #SPARE_AFTER}
     * times, the next life is not killed before its batch is done: the kills still land in redelivered batches, never
     * often enough to redrive one.
     */
    private static void awaitSparedBatchesDone(Process child, Path out) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (child.isAlive() && System.nanoTime() < until && mostReceives(out) >= SPARE_AFTER) {
            Thread.sleep(20);
        }
    }

    /** The most receives of a message still in the replay's input queue (in flight or waiting to be redelivered). */
    private static int mostReceives(Path out) throws IOException {
        Path state = out.resolve("replay-state.json");
        if (!Files.isRegularFile(state)) {
            return 0;
        }
        int most = 0;
        for (JsonNode input : JSON.readTree(state.toFile()).path("inputs")) {
            most = Math.max(most, input.path("receiveCount").asInt());
        }
        return most;
    }

    private String log(int life) throws IOException {
        File file = dir.resolve("life-" + life + ".log").toFile();
        return file.exists() ? Files.readString(file.toPath(), StandardCharsets.UTF_8) : "";
    }

    /**
     * Per window, its last revision without what depends on processing-time timing: a kill between a window write
     * and its timer send loses the timer, so the close waits for the next sweep (up to a minute later); an event
     * arriving meanwhile is then counted in the revision being closed instead of in a correction. What the window
     * finally counts must not change: no event lost, none counted twice.
     */
    private static Map<String, JsonNode> finalRevisions(Map<String, JsonNode> aggregates) {
        Map<String, JsonNode> last = new TreeMap<>();
        for (JsonNode a : aggregates.values()) {
            String window = a.path("pipeline").asText() + "/" + a.path("key").asText() + "/" + a.path("window").path("id").asText();
            JsonNode before = last.get(window);
            if (before == null || before.path("revision").asInt() < a.path("revision").asInt()) {
                last.put(window, a);
            }
        }
        Map<String, JsonNode> counted = new TreeMap<>();
        last.forEach((window, a) -> {
            com.fasterxml.jackson.databind.node.ObjectNode c = a.deepCopy();
            for (String timing : List.of("aggregateId", "revision", "corrects", "closeReason", "closedAt", "emittedAt")) {
                c.remove(timing);
            }
            counted.put(window, c);
        });
        return counted;
    }

    private static Map<String, List<Integer>> revisionsPerWindow(Map<String, JsonNode> aggregates) {
        Map<String, List<Integer>> revisions = new TreeMap<>();
        for (JsonNode a : aggregates.values()) {
            String window = a.path("pipeline").asText() + "/" + a.path("key").asText() + "/" + a.path("window").path("id").asText();
            revisions.computeIfAbsent(window, w -> new ArrayList<>()).add(a.path("revision").asInt());
        }
        revisions.values().forEach(list -> list.sort(null));
        return revisions;
    }

    private static List<Integer> contiguous(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    private static Set<String> distinct(List<String> records, String... fields) throws IOException {
        Set<String> keys = new TreeSet<>();
        for (String record : records) {
            JsonNode json = JSON.readTree(record);
            StringBuilder key = new StringBuilder();
            for (String field : fields) {
                key.append(json.path(field).asText()).append('|');
            }
            keys.add(key.toString());
        }
        return keys;
    }
}
