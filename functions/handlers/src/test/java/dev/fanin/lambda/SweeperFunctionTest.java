package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweeper with {@code events/scheduled-sweep.json}: the backstop closes what no timer closed. */
class SweeperFunctionTest {

    private static final String KEY = "111122223333|eu-west-1|orders-db";

    @Test
    void theScheduledSweepClosesADueSessionAndReportsWhatItDid() {
        SQSEvent alerts = SampleEvents.sqs("sqs-sns-alerts.json");
        ScheduledEvent schedule = SampleEvents.scheduled("scheduled-sweep.json");
        LocalFanin fanin = LocalFanin.start("sweep", SampleEvents.lastSent(alerts).plusSeconds(1));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("s-ingest"));
        fanin.clock.advance(Duration.ofMinutes(5));

        StdoutCapture.Captured<Map<String, Object>> run = StdoutCapture.run(
                () -> new SweeperFunction(fanin.runtime).handleRequest(schedule, TestContexts.invocation("s-sweep", 60_000)));

        assertThat(run.result()).containsEntry("visited", 1).containsEntry("claimed", 1).containsEntry("exhausted", false);
        assertThat(fanin.windows("alert-storm-sns", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        JsonNode aggregate = fanin.aggregates(1, Duration.ofSeconds(10), Duration.ofSeconds(1)).get(0);
        assertThat(aggregate.path("pipeline").asText()).isEqualTo("alert-storm-sns");
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("SESSION_GAP");
        assertThat(EmfRecords.values(run.lines(), MetricNames.OPEN_WINDOWS)).as("one gauge per pipeline").hasSize(4);
        assertThat(EmfRecords.values(run.lines(), MetricNames.OLDEST_OPEN_WINDOW_AGE)).hasSize(4);
        assertThat(EmfRecords.values(run.lines(), MetricNames.SECONDS_PAST_HARD_DEADLINE)).as("every window within its deadline")
                .containsOnly(0.0).hasSize(4);
        assertThat(EmfRecords.pipelineValues(run.lines(), MetricNames.OPEN_WINDOWS, "alert-storm-sns")).hasSize(1);
    }

    /**
     * "Windows not closing" is measured against each window's own hard deadline (alert-storm-sns: opened + 10 min),
     * so the alarm needs no threshold that follows the configuration.
     */
    @Test
    void theSweepReportsHowFarAWindowIsPastItsOwnHardDeadline() {
        SQSEvent alerts = SampleEvents.sqs("sqs-sns-alerts.json");
        LocalFanin fanin = LocalFanin.start("pastdeadline", SampleEvents.lastSent(alerts).plusSeconds(1));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("p-ingest"));
        fanin.clock.advance(Duration.ofMinutes(10).plusSeconds(75)); // the sweeper did not run for 10 minutes

        StdoutCapture.Captured<Map<String, Object>> run = StdoutCapture.run(() -> new SweeperFunction(fanin.runtime)
                .handleRequest(SampleEvents.scheduled("scheduled-sweep.json"), TestContexts.invocation("p-sweep", 60_000)));

        assertThat(run.result()).containsEntry("claimed", 1).containsEntry("secondsPastHardDeadline", 75L);
        assertThat(EmfRecords.pipelineValues(run.lines(), MetricNames.SECONDS_PAST_HARD_DEADLINE, "alert-storm-sns")).containsExactly(75.0);
        assertThat(EmfRecords.pipelineValues(run.lines(), MetricNames.SECONDS_PAST_HARD_DEADLINE, "file-uploads")).containsExactly(0.0);
        assertThat(EmfRecords.values(run.lines(), MetricNames.SECONDS_PAST_HARD_DEADLINE)).contains(75.0);
    }

    /**
     * DueShards lowered from 256 to 1 while a session listed in a shard past 1 is open and its timer is lost (nothing
     * consumes the timer queue here): the scheduled sweep reads shard 0 only; the hourly event reads every shard.
     */
    @Test
    void theHourlyEventSweepsTheShardsADeploymentWithMoreShardsLeft() {
        SQSEvent alerts = SampleEvents.sqs("sqs-sns-alerts.json");
        LocalFanin fanin = LocalFanin.start("everyshard", SampleEvents.lastSent(alerts).plusSeconds(1), Map.of("FANIN_DUE_SHARDS", "256"));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("e-ingest"));
        fanin.clock.advance(Duration.ofMinutes(5));
        Map<String, String> fewer = new java.util.HashMap<>(fanin.environment);
        fewer.put("FANIN_DUE_SHARDS", "1");
        SweeperFunction sweeper = new SweeperFunction(FaninRuntime.create(fewer, fanin.clock));

        Map<String, Object> scheduled = sweeper.handleRequest(SampleEvents.scheduled("scheduled-sweep.json"), TestContexts.invocation("e-sweep", 60_000));
        Map<String, Object> hourly = sweeper.handleRequest(SampleEvents.scheduled("scheduled-sweep-every-shard.json"),
                TestContexts.invocation("e-hourly", 60_000));

        assertThat(scheduled).as("the session is listed past shard 0").containsEntry("shards", "configured").containsEntry("visited", 0);
        assertThat(hourly).containsEntry("shards", "every").containsEntry("visited", 1).containsEntry("claimed", 1);
        assertThat(fanin.windows("alert-storm-sns", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        assertThat(fanin.aggregates(1, Duration.ofSeconds(10), Duration.ofSeconds(1)).get(0).path("closeReason").asText())
                .isEqualTo("SESSION_GAP");
    }

    @Test
    void aScheduleAskingForShardsTheSweeperDoesNotKnowFailsSayingWhat() {
        LocalFanin fanin = LocalFanin.start("badshards", java.time.Instant.parse("2026-11-29T09:47:00Z"));
        ScheduledEvent odd = SampleEvents.scheduled("scheduled-sweep-every-shard.json");
        odd.setDetail(Map.of("shards", "all"));

        assertThatThrownBy(() -> new SweeperFunction(fanin.runtime).handleRequest(odd, TestContexts.invocation("b-sweep", 60_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("detail.shards is \"all\"").hasMessageContaining("\"every\"");
    }

    @Test
    void noRemainingTimeMeansNoWindowIsTakenAndTheRunSaysSo() {
        SQSEvent alerts = SampleEvents.sqs("sqs-sns-alerts.json");
        LocalFanin fanin = LocalFanin.start("nosweep", SampleEvents.lastSent(alerts).plusSeconds(1));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("n-ingest"));
        fanin.clock.advance(Duration.ofMinutes(5));

        Map<String, Object> report = new SweeperFunction(fanin.runtime)
                .handleRequest(SampleEvents.scheduled("scheduled-sweep.json"), TestContexts.invocation("n-sweep", 0));

        assertThat(report).containsEntry("visited", 0).containsEntry("exhausted", true);
        assertThat(fanin.windows("alert-storm-sns", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.OPEN));
    }
}
