package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.aws.sqs.TimerMessage;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The timer function with {@code events/sqs-timer.json}, malformed timers, and a store that fails. */
class TimerFunctionTest {

    private static final String KEY = "111122223333|eu-west-1|payments-api";

    @Test
    void theSampleTimerClosesTheAlertSessionItNamesOnceItIsDue() {
        SQSEvent alerts = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        SQSEvent timer = SampleEvents.sqs("sqs-timer.json");
        TimerMessage sample = TimerMessage.parse(timer.getRecords().get(0).getBody());
        LocalFanin fanin = LocalFanin.start("timer", SampleEvents.lastSent(alerts).plusSeconds(1));
        assertThat(new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("t-ingest")).getBatchItemFailures()).isEmpty();
        assertThat(fanin.windows("alert-storm", KEY)).extracting(w -> w.ref()).containsExactly(sample.wakeup().ref());

        fanin.clock.set(sample.wakeup().dueAt().plusSeconds(1));
        SQSBatchResponse response = new TimerFunction(fanin.runtime).handleRequest(timer, TestContexts.invocation("t-fire"));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(fanin.windows("alert-storm", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        JsonNode aggregate = fanin.aggregates(1, Duration.ofSeconds(10), Duration.ofSeconds(1)).get(0);
        assertThat(aggregate.path("window").path("id").asText()).isEqualTo(sample.wakeup().ref().windowId());
        assertThat(aggregate.path("closeReason").asText()).isEqualTo("SESSION_GAP");
        assertThat(aggregate.path("aggregations").path("alerts").asInt()).isEqualTo(3);
    }

    @Test
    void aBatchOfTimersIsOneInvocationThatClosesEachWindowOnceAndReturnsItsSlot() {
        SQSEvent alerts = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        String body = SampleEvents.sqs("sqs-timer.json").getRecords().get(0).getBody();
        TimerMessage sample = TimerMessage.parse(body);
        LocalFanin fanin = LocalFanin.start("timerbatch", SampleEvents.lastSent(alerts).plusSeconds(1));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("b-ingest"));
        assertThat(fanin.runtime.engine().ports().store().openWindows("alert-storm")).isEqualTo(1);

        fanin.clock.set(sample.wakeup().dueAt().plusSeconds(1));
        // The same timer twice (re-armed and original) and a malformed one, in one batch.
        SQSBatchResponse response = new TimerFunction(fanin.runtime).handleRequest(
                sqsEvent(Map.of("first", body, "second", body, "junk", "not a timer")), TestContexts.invocation("b-fire"));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(fanin.windows("alert-storm", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.CLOSED));
        assertThat(fanin.aggregates(2, Duration.ofSeconds(3), Duration.ofSeconds(1))).as("one aggregate, not two").hasSize(1);
        assertThat(fanin.runtime.engine().ports().store().openWindows("alert-storm")).as("the slot came back").isZero();
    }

    @Test
    void aTimerFiredBeforeItsWindowIsDueClosesNothing() {
        SQSEvent alerts = SampleEvents.sqs("sqs-eventbridge-alerts.json");
        SQSEvent timer = SampleEvents.sqs("sqs-timer.json");
        LocalFanin fanin = LocalFanin.start("early", SampleEvents.lastSent(alerts).plusSeconds(1));
        new IngestFunction(fanin.runtime).handleRequest(alerts, TestContexts.invocation("e-ingest"));

        SQSBatchResponse response = new TimerFunction(fanin.runtime).handleRequest(timer, TestContexts.invocation("e-fire"));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(fanin.windows("alert-storm", KEY)).singleElement()
                .satisfies(w -> assertThat(w.status()).isEqualTo(WindowStatus.OPEN));
        assertThat(fanin.aggregates(0, Duration.ZERO, Duration.ofSeconds(1))).isEmpty();
    }

    @Test
    void malformedTimersAreAcknowledgedAndCounted() {
        LocalFanin fanin = LocalFanin.start("badtimer", Instant.parse("2026-11-29T09:50:00Z"));
        SQSEvent event = sqsEvent(Map.of(
                "not-json", "this is not a timer",
                "no-due", "{\"pipeline\":\"alert-storm\",\"key\":\"k\",\"windowId\":\"S001795945202000\"}",
                "gone", "{\"pipeline\":\"retired-pipeline\",\"key\":\"k\",\"windowId\":\"S001795945202000\",\"dueAt\":\"2026-11-29T09:46:11Z\"}"));

        LogCapture.Captured<StdoutCapture.Captured<SQSBatchResponse>> logged = LogCapture.run(() -> StdoutCapture.run(
                () -> new TimerFunction(fanin.runtime).handleRequest(event, TestContexts.invocation("bad-timers"))));
        StdoutCapture.Captured<SQSBatchResponse> run = logged.result();

        assertThat(run.result().getBatchItemFailures()).as("retrying cannot make them valid").isEmpty();
        assertThat(EmfRecords.values(run.lines(), FunctionMetricNames.MALFORMED_TIMERS)).containsExactly(1.0, 1.0, 1.0);
        assertThat(logged.at("WARN")).as("a message put here by mistake is not lost: its body is in the log")
                .anySatisfy(line -> assertThat(line).contains("this is not a timer"));
    }

    @Test
    void aStoreFailureFailsOnlyThatTimerSoSqsRedeliversIt() {
        LocalFanin fanin = LocalFanin.start("storefail", Instant.parse("2026-11-29T09:50:00Z"));
        Map<String, String> env = new HashMap<>(fanin.environment);
        env.put(EnvironmentVariables.TABLE_NAME, "no-such-table");
        FaninRuntime broken = FaninRuntime.create(env, fanin.clock);
        SQSEvent timer = SampleEvents.sqs("sqs-timer.json");
        SQSEvent event = sqsEvent(Map.of(
                "valid", timer.getRecords().get(0).getBody(),
                "malformed", "{}"));

        SQSBatchResponse response = new TimerFunction(broken).handleRequest(event, TestContexts.invocation("store-fail"));

        assertThat(response.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("valid");
    }

    static SQSEvent sqsEvent(Map<String, String> bodiesById) {
        List<SQSEvent.SQSMessage> records = bodiesById.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> {
            SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
            m.setMessageId(e.getKey());
            m.setBody(e.getValue());
            m.setAttributes(Map.of("ApproximateReceiveCount", "1", "SentTimestamp", "1795945211530"));
            return m;
        }).toList();
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        return event;
    }
}
