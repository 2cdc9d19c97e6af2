package dev.fanin.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Why a window has not closed, as {@code fanin windows list} says it: pure, from the state, the watermark and the time. */
class WindowReportTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final FaninConfig CONFIG = ConfigLoader.load(WindowsCommandTest.JOBS, "test");
    private static final PipelineConfig JOBS = CONFIG.pipelines().get(0);
    private final WindowMachine machine = new WindowMachine(JOBS, Duration.ofSeconds(30));

    /** Job "j" with the given shards of 4, in the hour starting at T0, as ingest leaves it at T0 + 1 min. */
    private Transition jobWithShards(long watermark, Instant now, int... shards) {
        WindowState open = machine.open(new WindowRef("jobs", "j", WindowRef.timeWindowId(T0.toEpochMilli())),
                new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 3_600_000), T0);
        MessageIntake intake = new MessageIntake(CONFIG);
        List<dev.fanin.core.event.Event> events = new java.util.ArrayList<>();
        for (int shard : shards) {
            events.addAll(intake.parse(new InboundMessage("m" + shard, "{\"job\":\"j\",\"shard\":" + shard + ",\"n\":4,\"at\":\""
                    + T0.plusSeconds(shard) + "\"}", null, T0)).accepted());
        }
        return machine.ingest(open, events, watermark, now);
    }

    @Test
    void anOpenJobWaitsForItsMissingShardsOrTheWatermark() {
        WindowState w = jobWithShards(T0.toEpochMilli(), T0.plusSeconds(60), 0, 2).next();

        WindowReport r = WindowReport.of(w, JOBS, T0.toEpochMilli(), T0.plusSeconds(60));

        assertThat(r.completeness()).isEqualTo("2 of 4 (missing 1, 3)");
        assertThat(r.why()).startsWith("waiting for 2 more expected events, or the watermark (2026-11-29T10:00:00Z) to pass its end "
                + "(2026-11-29T11:00:00Z); hard deadline in 29m 00s");
        assertThat(r.overdue()).isFalse();
    }

    @Test
    void anOpenJobPastItsEndSaysItIsDueNotThatItWaitsForTheWatermark() {
        WindowState w = jobWithShards(T0.toEpochMilli(), T0.plusSeconds(60), 0, 2).next();
        long pastTheEnd = T0.plus(Duration.ofHours(1)).toEpochMilli();

        assertThat(WindowReport.of(w, JOBS, pastTheEnd, T0.plusSeconds(90)).why()).startsWith("due: the watermark "
                + "(2026-11-29T11:00:00Z) is past its end (2026-11-29T11:00:00Z); waiting for its timer or the next sweep");
        assertThat(WindowReport.of(w, JOBS, pastTheEnd - 1, T0.plusSeconds(90)).why()).startsWith("waiting for 2 more expected events");
    }

    @Test
    void aWindowWrittenOnlyForTooLateEventsSaysSo() {
        long dayLater = T0.plus(Duration.ofDays(1)).toEpochMilli();
        WindowState w = jobWithShards(dayLater, T0.plusSeconds(60), 0).next();

        assertThat(w.status()).isEqualTo(dev.fanin.core.window.WindowStatus.CLOSED);
        assertThat(WindowReport.of(w, JOBS, dayLater, T0.plusSeconds(60)).why())
                .isEqualTo("closed, never emitted: its events so far were too late (kept here, so that their copies are too)");
    }

    @Test
    void overdueStartsTheSweepersGraceAfterTheHardDeadline() {
        WindowState w = jobWithShards(T0.toEpochMilli(), T0.plusSeconds(60), 0, 2).next();

        assertThat(WindowReport.of(w, JOBS, T0.toEpochMilli(), w.hardDeadline().plus(WindowReport.OVERDUE_AFTER).minusMillis(1)).overdue()).isFalse();
        assertThat(WindowReport.of(w, JOBS, T0.toEpochMilli(), w.hardDeadline().plus(WindowReport.OVERDUE_AFTER)).overdue()).isTrue();
    }

    @Test
    void aHeldJobSaysWhatHappensAtItsDeadlineAndOverdueWhenPastIt() {
        long pastTheEnd = T0.plus(Duration.ofHours(2)).toEpochMilli();
        WindowState held = machine.tick(jobWithShards(T0.toEpochMilli(), T0.plusSeconds(30), 0).next(), pastTheEnd, T0.plusSeconds(60)).next();

        assertThat(held.status()).isEqualTo(dev.fanin.core.window.WindowStatus.HELD);
        assertThat(WindowReport.of(held, JOBS, pastTheEnd, T0.plusSeconds(60)).why())
                .startsWith("held incomplete (incomplete.policy hold) until complete or its hard deadline in 29m 00s")
                .endsWith("then fired flagged incomplete");
        WindowReport late = WindowReport.of(held, JOBS, pastTheEnd, T0.plus(Duration.ofMinutes(33)));
        assertThat(late.overdue()).isTrue();
        assertThat(late.why()).startsWith("OVERDUE: still HELD past its hard deadline 3m 00s ago");
    }

    /** The late events of a split's continuation a visit closed empty are held under hold, and the row says so. */
    @Test
    void aContinuationClosedEmptyWhoseLateEventsAreHeldSaysSoNotThatTheyAreDue() {
        FaninConfig config = ConfigLoader.load(WindowsCommandTest.JOBS.replace("\n    incomplete:",
                "\n    bounds: {maxEventsPerWindow: 2, onOverflow: split}\n    incomplete:"), "test");
        PipelineConfig jobs = config.pipelines().get(0);
        WindowMachine m = new WindowMachine(jobs, Duration.ofSeconds(30));
        MessageIntake intake = new MessageIntake(config);
        java.util.function.IntFunction<List<dev.fanin.core.event.Event>> shard = n -> intake.parse(new InboundMessage("m" + n,
                "{\"job\":\"j\",\"shard\":" + n + ",\"n\":4,\"at\":\"" + T0.plusSeconds(n) + "\"}", null, T0)).accepted();
        WindowState open = m.open(new WindowRef("jobs", "j", WindowRef.timeWindowId(T0.toEpochMilli())),
                new Interval(T0.toEpochMilli(), T0.toEpochMilli() + 3_600_000), T0);
        List<dev.fanin.core.event.Event> full = new java.util.ArrayList<>(shard.apply(0));
        full.addAll(shard.apply(1));
        WindowState split = m.ingest(open, full, T0.toEpochMilli(), T0.plusSeconds(10)).next().withVersion(1);
        WindowState continuation = m.commit(split, split.fence(), T0.toEpochMilli(), T0.plusSeconds(11)).next().withVersion(2);
        long pastTheEnd = T0.plus(Duration.ofHours(2)).toEpochMilli();
        WindowState closedEmpty = m.tick(continuation, pastTheEnd, T0.plusSeconds(60)).next().withVersion(3);
        assertThat(closedEmpty.closedUnemitted()).isNotNull();
        WindowState held = m.ingest(closedEmpty, shard.apply(2), pastTheEnd, T0.plusSeconds(90)).next();

        assertThat(WindowReport.of(held, jobs, pastTheEnd, T0.plusSeconds(90)).why()).isEqualTo("closed; its late events, a"
                + " continuation of the window (revision 1), are held incomplete (incomplete.policy hold) until complete or its"
                + " hard deadline in 28m 30s (2026-11-29T10:30:00Z), then fired flagged incomplete");
    }

    /**
     * A claim past its lease and its deadline is overdue for its own reason, an emission failing or a crash, not the
     * sweeper (a review: the row sent the operator to the sweeper's errors for a window whose target refused it).
     */
    @Test
    void anOverdueClaimSaysItsEmissionHasNotCommitted() {
        WindowState claimed = machine.closeByOperator(jobWithShards(T0.toEpochMilli(), T0.plusSeconds(30), 0).next(), "draining",
                T0.toEpochMilli(), T0.plusSeconds(60)).next();
        Instant afterDeadline = claimed.hardDeadline().plus(Duration.ofMinutes(10));

        WindowReport late = WindowReport.of(claimed, JOBS, T0.toEpochMilli(), afterDeadline);

        assertThat(late.overdue()).isTrue();
        assertThat(late.why()).startsWith("OVERDUE: claimed (revision 0, OPERATOR").contains("without a commit").contains("EmitFailures")
                .doesNotContain("sweeper is not reaching it");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {"1,2,3,7;1-3, 7", "0;0", "4,6,8;4, 6, 8", "1,2;1-2"})
    void membersReadAsRanges(String members, String text) {
        assertThat(Members.ranges(java.util.Arrays.stream(members.split(",")).map(Integer::valueOf).toList())).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({"0,0s", "59,59s", "60,1m 00s", "3725,1h 02m", "90061,1d 01h"})
    void durationsReadShort(long seconds, String text) {
        assertThat(Times.compact(Duration.ofSeconds(seconds))).isEqualTo(text);
    }

    @Test
    void overdueIsAskedBesideStoredStatusesAndKeepsOnlyOverdueOpenWindows() throws Exception {
        long pastTheEnd = T0.plus(Duration.ofHours(2)).toEpochMilli();
        WindowState open = jobWithShards(T0.toEpochMilli(), T0.plusSeconds(30), 0).next();
        WindowState held = machine.tick(open, pastTheEnd, T0.plusSeconds(60)).next();
        WindowReport openOverdue = WindowReport.of(open, JOBS, T0.toEpochMilli(), T0.plus(Duration.ofMinutes(40)));
        WindowReport heldInTime = WindowReport.of(held, JOBS, pastTheEnd, T0.plusSeconds(60));
        WindowReport openInTime = WindowReport.of(open, JOBS, T0.toEpochMilli(), T0.plusSeconds(60));

        ListWindowsCommand.Filter heldOrOverdue = ListWindowsCommand.Filter.of(List.of("held", "overdue"));

        assertThat(heldOrOverdue.stored()).containsExactlyInAnyOrder(dev.fanin.core.window.WindowStatus.OPEN,
                dev.fanin.core.window.WindowStatus.HELD, dev.fanin.core.window.WindowStatus.CLAIMED);
        assertThat(heldOrOverdue.accepts(openOverdue)).isTrue();
        assertThat(heldOrOverdue.accepts(heldInTime)).isTrue();
        assertThat(heldOrOverdue.accepts(openInTime)).isFalse();
        assertThat(ListWindowsCommand.Filter.of(List.of("overdue")).accepts(heldInTime)).isFalse();
    }
}
