package dev.fanin.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.port.WindowStore;
import dev.fanin.core.service.SweepPlan.Listing;
import dev.fanin.core.service.SweepPlan.Relisting;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sweeper's plan, decided before a run reads anything: shard order, threads, budget, the stop, the relistings. */
class SweepPlanTest {

    private static final Instant MIDNIGHT = Instant.parse("2026-11-29T00:00:00Z");
    private static final Instant DEADLINE = MIDNIGHT.plusSeconds(600);

    @ParameterizedTest(name = "{0} shards, run at +{1}s: {2}")
    @CsvSource(delimiter = '|', value = {
            "1   | 0   | 0",
            "1   | 61  | 0",
            "4   | 0   | 0 1 2 3",
            "4   | 59  | 0 1 2 3",
            "4   | 60  | 1 2 3 0",
            "4   | 179 | 2 3 0 1",
            "4   | 180 | 3 0 1 2",
            "4   | 240 | 0 1 2 3",
            "3   | 300 | 2 0 1",
    })
    void theFirstShardRotatesEveryMinuteAndEveryShardIsListedOnce(int shards, int secondsAfterMidnight, String order) {
        SweepPlan plan = SweepPlan.of(FaninSettings.defaults(), shards, MIDNIGHT.plusSeconds(secondsAfterMidnight), DEADLINE);

        assertThat(plan.shardOrder()).containsExactlyElementsOf(Arrays.stream(order.split(" ")).map(Integer::valueOf).toList());
    }

    /**
     * Lowering DueShards leaves buckets in the shards removed: a run over every shard lists every shard past the
     * configured ones first (a run cut short by its budget under a backlog still reads them), then the configured
     * ones, as a scheduled run does.
     */
    @ParameterizedTest(name = "{0} shards")
    @CsvSource({"1", "16", "255", "256"})
    void aRunOverEveryShardListsEachShardADeploymentCouldHaveWrittenOnce(int shards) {
        Instant start = MIDNIGHT.plus(Duration.ofMinutes(7));
        SweepPlan plan = SweepPlan.of(FaninSettings.defaults().withSweepParallelism(8), shards, start, DEADLINE, true);

        int past = WindowStore.MAX_DUE_SHARDS - shards;
        assertThat(plan.shardOrder().subList(0, past)).allSatisfy(shard -> assertThat(shard).isGreaterThanOrEqualTo(shards));
        assertThat(plan.shardOrder().subList(past, WindowStore.MAX_DUE_SHARDS))
                .containsExactlyElementsOf(SweepPlan.of(FaninSettings.defaults(), shards, start, DEADLINE).shardOrder());
        assertThat(plan.shardOrder()).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, WindowStore.MAX_DUE_SHARDS).boxed().toList());
        assertThat(plan.threads()).as("threads capped by the shards listed, not the configured ones").isEqualTo(8);
    }

    @ParameterizedTest(name = "{1} s after midnight: {2}")
    @CsvSource(delimiter = '|', value = {
            "a,b,c,retired | 0   | a,b,c,retired",
            "a,b,c,retired | 59  | a,b,c,retired",
            "a,b,c,retired | 60  | b,c,retired,a",
            "a,b,c,retired | 180 | retired,a,b,c",
            "a,b,c,retired | 240 | a,b,c,retired",
            "a             | 120 | a",
    })
    void thePipelinesAreSweptFromOneThatChangesEveryMinute(String pipelines, int secondsAfterMidnight, String order) {
        assertThat(SweepPlan.inTurn(List.of(pipelines.split(",")), MIDNIGHT.plusSeconds(secondsAfterMidnight), false))
                .containsExactly(order.split(","));
    }

    /** Hourly runs at the same minute of each hour: by the minute, four pipelines would start at a every hour. */
    @ParameterizedTest(name = "{0} h after midnight: {1}")
    @CsvSource(delimiter = '|', value = {
            "0 | a,b,c,retired",
            "1 | b,c,retired,a",
            "2 | c,retired,a,b",
            "3 | retired,a,b,c",
            "4 | a,b,c,retired",
    })
    void theHourlyRunOverEveryShardStartsFromOneThatChangesEveryHour(int hours, String order) {
        Instant start = MIDNIGHT.plus(java.time.Duration.ofHours(hours)).plusSeconds(17);
        assertThat(SweepPlan.inTurn(List.of("a", "b", "c", "retired"), start, true)).containsExactly(order.split(","));
        assertThat(SweepPlan.inTurn(List.of("a", "b", "c", "retired"), start, false)).as("by the minute: the same every hour")
                .containsExactly("a", "b", "c", "retired");
    }

    @ParameterizedTest(name = "parallelism {0} over {1} shards: {2} threads, budget {3}")
    @CsvSource(delimiter = '|', value = {
            "1 | 16 | 1 | 20000",
            "4 | 16 | 4 | 80000",
            "8 | 4  | 4 | 160000",
            "8 | 1  | 1 | 160000",
    })
    void threadsAreCappedByTheShardsAndTheBudgetGrowsWithTheThreadsAsked(int parallelism, int shards, int threads, int budget) {
        SweepPlan plan = SweepPlan.of(FaninSettings.defaults().withSweepParallelism(parallelism), shards, MIDNIGHT, DEADLINE);

        assertThat(plan.threads()).isEqualTo(threads);
        assertThat(plan.budget()).isEqualTo(budget);
    }

    @ParameterizedTest(name = "visited {0} of 10, {1} ms before the deadline: stops {2}")
    @CsvSource(delimiter = '|', value = {
            "0  | 1000 | false",
            "9  | 1    | false",
            "10 | 1000 | true",
            "11 | 1000 | true",
            "0  | 0    | true",
            "0  | -1   | true",
    })
    void aRunStopsWhenItsBudgetOrItsTimeIsSpent(int visited, long msBeforeDeadline, boolean stops) {
        SweepPlan plan = SweepPlan.of(FaninSettings.defaults().withSweepMaxWindows(10), 4, MIDNIGHT, DEADLINE);

        assertThat(plan.stops(visited, DEADLINE.minusMillis(msBeforeDeadline))).isEqualTo(stops);
    }

    @ParameterizedTest(name = "next visits {0} ms after the grid: buckets at {1}")
    @CsvSource(delimiter = '|', value = {
            "0             | 0",
            "0 9999        | 0",
            "0 10000       | 0 10000",
            "9999 10001    | 0 10000",
            "-1            | -10000",
            "25000 5000 1  | 0 20000",
    })
    void windowsAreListedInTheBucketOfTheirNextVisitRoundedDownToTheGrid(String nextVisits, String buckets) {
        Map<WindowRef, Relisting> relisted = new LinkedHashMap<>();
        List<Long> offsets = Arrays.stream(nextVisits.split(" ")).map(Long::valueOf).toList();
        for (int i = 0; i < offsets.size(); i++) {
            relisted.put(ref(i), new Relisting(MIDNIGHT.plusMillis(offsets.get(i)), MIDNIGHT.plusSeconds(3600), i));
        }

        List<Listing> listings = SweepPlan.listings(relisted, Duration.ofSeconds(10));

        assertThat(listings).extracting(Listing::dueAt).containsExactlyElementsOf(
                Arrays.stream(buckets.split(" ")).map(b -> MIDNIGHT.plusMillis(Long.parseLong(b))).toList());
        assertThat(listings.stream().mapToInt(l -> l.entries().size()).sum()).as("every window listed once").isEqualTo(offsets.size());
    }

    @Test
    void aBucketOutlivesTheLatestExpiryOfTheWindowsItLists() {
        Map<WindowRef, Relisting> relisted = new LinkedHashMap<>();
        relisted.put(ref(0), new Relisting(MIDNIGHT.plusSeconds(1), MIDNIGHT.plusSeconds(100), 1));
        relisted.put(ref(1), new Relisting(MIDNIGHT.plusSeconds(2), MIDNIGHT.plusSeconds(900), 2));
        relisted.put(ref(2), new Relisting(MIDNIGHT.plusSeconds(3), MIDNIGHT.plusSeconds(300), 3));

        Listing only = SweepPlan.listings(relisted, Duration.ofSeconds(10)).get(0);

        assertThat(only.dueAt()).isEqualTo(MIDNIGHT);
        assertThat(only.entries()).containsExactlyInAnyOrder(ref(0), ref(1), ref(2));
        assertThat(only.expiresAt()).isEqualTo(MIDNIGHT.plusSeconds(900));
    }

    @ParameterizedTest(name = "{0} windows due in one step: buckets of {1}")
    @CsvSource(delimiter = '|', value = {
            "1   | 1",
            "99  | 99",
            "100 | 100",
            "101 | 100 1",
            "250 | 100 100 50",
    })
    void windowsDueInOneStepAreListedInBucketsOfAtMostAHundredEachOutlivingItsOwn(int windows, String sizes) {
        Map<WindowRef, Relisting> relisted = new LinkedHashMap<>();
        for (int i = 0; i < windows; i++) {
            relisted.put(ref(i), new Relisting(MIDNIGHT.plusMillis(i), MIDNIGHT.plusSeconds(100 + i), i));
        }

        List<Listing> listings = SweepPlan.listings(relisted, Duration.ofSeconds(10));

        assertThat(listings).extracting(l -> l.entries().size())
                .containsExactlyElementsOf(Arrays.stream(sizes.split(" ")).map(Integer::valueOf).toList());
        assertThat(listings).allSatisfy(l -> assertThat(l.dueAt()).isEqualTo(MIDNIGHT));
        assertThat(listings.stream().flatMap(l -> l.entries().stream()).distinct().count()).as("every window once").isEqualTo(windows);
        assertThat(listings).allSatisfy(l -> assertThat(l.expiresAt()).isEqualTo(l.entries().stream()
                .map(r -> relisted.get(r).expiresAt()).max(Instant::compareTo).orElseThrow()));
    }

    @Test
    void twoPlansOfOneWindowKeepTheEarlierVisitTheLaterExpiryAndTheNewerRead() {
        Relisting a = new Relisting(MIDNIGHT.plusSeconds(5), MIDNIGHT.plusSeconds(100), 7);
        Relisting b = new Relisting(MIDNIGHT.plusSeconds(9), MIDNIGHT.plusSeconds(400), 3);

        assertThat(Relisting.earlier(a, b)).isEqualTo(new Relisting(MIDNIGHT.plusSeconds(5), MIDNIGHT.plusSeconds(400), 7))
                .isEqualTo(Relisting.earlier(b, a));
    }

    private static WindowRef ref(int i) {
        return new WindowRef("p", "k" + i, "w" + i);
    }
}
