package dev.fanin.it;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.MetricNames;
import dev.fanin.core.watermark.StoredAdvance;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Issue 4: late events at each boundary under each late policy and each incomplete-window policy, and a correction
 * chain. The watermark is set exactly: out-of-orderness 0s, so after a batch whose newest event time is X (on a
 * "pusher" key) the watermark is X; no clock advance, so no idle advance. Window [W, W+60s), lateness 30s.
 */
class LatenessTest {

    static final Instant W = Instant.parse("2026-03-02T10:00:00Z");
    static final Instant END = W.plusSeconds(60);
    static final Duration LATENESS = Duration.ofSeconds(30);

    private static FaninStack stack(String... more) {
        String[] fields = new String[more.length + 4];
        fields[0] = "window: {type: tumbling, size: 1m}";
        fields[1] = "watermark: {outOfOrderness: 0s, idleAfter: 10m}";
        fields[2] = "allowedLateness: 30s";
        fields[3] = more.length == 0 || !more[0].startsWith("triggers") ? "triggers: {maxLifetime: 10m}" : more[0];
        int j = 4;
        for (String m : more) {
            if (!m.startsWith("triggers")) {
                fields[j++] = m;
            }
        }
        return FaninStack.rawPipeline(W.plusSeconds(65), java.util.Arrays.copyOf(fields, j));
    }

    /**
     * Moves the pipeline's watermark to exactly {@code to} with one event on each of ten other keys: ten, because a
     * smaller batch within 5 s of the stored watermark may leave it standing (StoredAdvance), which would move these
     * exact boundaries by up to that much; other keys, so that no expected count completes a pusher's window.
     */
    private static void watermarkTo(FaninStack stack, Instant to) {
        stack.process().ingest().handle(java.util.stream.IntStream.range(0, StoredAdvance.SHARED_BY)
                .mapToObj(i -> stack.message("pusher-" + i, "w" + to.toEpochMilli(), to)).toList());
    }

    /**
     * Opens the window of key k with {@code n} events and closes it by the watermark (at END). The sweep runs at the
     * window's due time: computed at ingest as if the watermark moved with processing time, it is when the sweeper
     * (or the timer) looks, even though the pusher moved the watermark past the end sooner.
     */
    private static WindowRef closedWindow(FaninStack stack, int n) {
        List<InboundMessage> events = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) {
            events.add(stack.message("k", "e" + i, W.plusSeconds(i)));
        }
        WindowRef ref = stack.ref(events.get(0));
        stack.process().ingest().handle(events);
        watermarkTo(stack, END);
        stack.clock.set(stack.window(ref).orElseThrow().dueAt());
        stack.process().sweep();
        return ref;
    }

    @ParameterizedTest
    @ValueSource(strings = {"side-output", "drop"})
    void justInsideLatenessIsACorrectionJustOutsideGoesByTheTooLatePolicy(String tooLate) {
        FaninStack stack = stack("late: {tooLate: " + tooLate + ", correctionDelay: 0s}");
        WindowRef ref = closedWindow(stack, 2);
        assertThat(stack.emitted(ref.aggregateId(0))).hasSize(1);

        watermarkTo(stack, END.plus(LATENESS).minusMillis(1));
        BatchResult inside = stack.process().ingest().handle(List.of(stack.message("k", "late1", W.plusSeconds(50))));
        assertThat(inside.late()).isEqualTo(1);
        JsonNode correction = stack.emitted(ref.aggregateId(1)).get(0);
        assertThat(correction.path("closeReason").asText()).isEqualTo("LATE_CORRECTION");
        assertThat(correction.path("corrects").asText()).isEqualTo(ref.aggregateId(0));
        assertThat(correction.path("aggregations").path("count").asInt()).isEqualTo(3);

        watermarkTo(stack, END.plus(LATENESS));
        BatchResult outside = stack.process().ingest().handle(List.of(stack.message("k", "late2", W.plusSeconds(50))));
        assertThat(outside.failedMessageIds()).isEmpty();
        assertThat(outside.tooLate()).isEqualTo(1);
        assertThat(stack.emitted(ref.aggregateId(2))).isEmpty();
        List<Message> side = stack.drain(stack.resources.queueUrl("LateEventsQueue"));
        String disposition = tooLate.equals("drop") ? "dropped" : "side-output";
        assertThat(stack.metrics.sum(MetricNames.LATE_EVENTS, Map.of("disposition", disposition))).isEqualTo(1);
        if (tooLate.equals("drop")) {
            assertThat(side).isEmpty();
        } else {
            assertThat(side).singleElement().satisfies(m -> {
                assertThat(m.messageAttributes().get("fanin-kind").stringValue()).isEqualTo("LATE_EVENT");
                assertThat(m.body()).contains("\"eventId\":\"late2\"", "\"reasonCode\":\"TOO_LATE\"", "\"reason\":\"TOO_LATE: watermark "
                        + IsoMillis.format(END.plus(LATENESS)) + " passed window end " + IsoMillis.format(END) + " + allowed lateness PT30S\"");
            });
        }
        stack.assertFlushInvariants();
    }

    @Test
    void correctionChainLinksEachRevisionToThePreviousOne() {
        FaninStack stack = stack("late: {correctionDelay: 0s}");
        WindowRef ref = closedWindow(stack, 2);
        for (int i = 1; i <= 3; i++) {
            stack.process().ingest().handle(List.of(stack.message("k", "late" + i, W.plusSeconds(40 + i))));
        }
        for (int r = 1; r <= 3; r++) {
            JsonNode revision = stack.emitted(ref.aggregateId(r)).get(0);
            assertThat(revision.path("revision").asInt()).isEqualTo(r);
            assertThat(revision.path("corrects").asText()).isEqualTo(ref.aggregateId(r - 1));
            assertThat(revision.path("aggregations").path("count").asInt()).isEqualTo(2 + r);
        }
        assertThat(stack.commitsOf(ref)).containsExactly(ref.aggregateId(0), ref.aggregateId(1), ref.aggregateId(2), ref.aggregateId(3));
        stack.assertFlushInvariants();
    }

    @Test
    void firePartialFiresFlaggedWithWhatIsMissingAndDoesNotReconcileBeyondLateness() {
        FaninStack stack = stack("triggers: {expected: {count: 3}, maxLifetime: 10m}", "incomplete: {policy: fire-partial}",
                "late: {correctionDelay: 0s}");
        WindowRef ref = closedWindow(stack, 2);
        JsonNode partial = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(partial.path("complete").asBoolean()).isFalse();
        assertThat(partial.path("expected").asInt()).isEqualTo(3);
        assertThat(partial.path("seen").asInt()).isEqualTo(2);

        watermarkTo(stack, END.plus(LATENESS));
        BatchResult tooLate = stack.process().ingest().handle(List.of(stack.message("k", "e3", W.plusSeconds(3))));
        assertThat(tooLate.tooLate()).as("fire-partial does not reconcile beyond lateness").isEqualTo(1);
        assertThat(stack.emitted(ref.aggregateId(1))).isEmpty();
        stack.assertFlushInvariants();
    }

    @Test
    void fireAndReconcileCorrectsWithTheMissingEventEvenBeyondLateness() {
        FaninStack stack = stack("triggers: {expected: {count: 3}, maxLifetime: 10m}", "incomplete: {policy: fire-and-reconcile}",
                "late: {correctionDelay: 0s}");
        WindowRef ref = closedWindow(stack, 2);
        assertThat(stack.emitted(ref.aggregateId(0)).get(0).path("complete").asBoolean()).isFalse();

        watermarkTo(stack, END.plus(LATENESS));
        BatchResult reconciled = stack.process().ingest().handle(List.of(stack.message("k", "e3", W.plusSeconds(3))));
        assertThat(reconciled.tooLate()).isZero();
        JsonNode correction = stack.emitted(ref.aggregateId(1)).get(0);
        assertThat(correction.path("corrects").asText()).isEqualTo(ref.aggregateId(0));
        assertThat(correction.path("complete").asBoolean()).isTrue();
        assertThat(correction.path("seen").asInt()).isEqualTo(3);
        stack.assertFlushInvariants();
    }

    @Test
    void holdKeepsAnIncompleteWindowPastItsEndAndFiresCompleteWhenTheMissingEventComesLate() {
        FaninStack stack = stack("triggers: {expected: {count: 3}, maxLifetime: 10m}", "incomplete: {policy: hold}");
        WindowRef ref = closedWindow(stack, 2);
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.HELD);
        assertThat(stack.emissions).isEmpty();
        assertThat(stack.metrics.sum(MetricNames.HELD_WINDOWS)).isEqualTo(1);

        watermarkTo(stack, END.plus(LATENESS));
        stack.process().ingest().handle(List.of(stack.message("k", "e3", W.plusSeconds(3))));
        JsonNode complete = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(complete.path("closeReason").asText()).isEqualTo("EXPECTED_COMPLETE");
        assertThat(complete.path("complete").asBoolean()).isTrue();
        stack.assertFlushInvariants();
    }

    @Test
    void holdWithFireFlaggedFiresIncompleteAtTheHardLifetime() {
        FaninStack stack = stack("triggers: {expected: {count: 3}, maxLifetime: 10m}", "incomplete: {policy: hold, atDeadline: fire-flagged}");
        WindowRef ref = closedWindow(stack, 2);
        Instant deadline = stack.window(ref).orElseThrow().hardDeadline();
        stack.clock.set(deadline.minusMillis(1));
        stack.process().sweep();
        assertThat(stack.emitted(ref.aggregateId(0))).isEmpty();
        stack.clock.set(deadline);
        stack.process().sweep();
        JsonNode flagged = stack.emitted(ref.aggregateId(0)).get(0);
        assertThat(flagged.path("closeReason").asText()).isEqualTo("HARD_LIFETIME");
        assertThat(flagged.path("complete").asBoolean()).isFalse();
        assertThat(flagged.path("missingCount").asInt()).isEqualTo(1);
        stack.assertFlushInvariants();
    }

    @Test
    void holdWithDeadLetterSendsTheIncompleteWindowToTheSideOutputAtTheHardLifetime() {
        FaninStack stack = stack("triggers: {expected: {count: 3}, maxLifetime: 10m}", "incomplete: {policy: hold, atDeadline: dead-letter}");
        WindowRef ref = closedWindow(stack, 2);
        stack.clock.set(stack.window(ref).orElseThrow().hardDeadline());
        stack.process().sweep();
        assertThat(stack.emitted(ref.aggregateId(0))).as("never on the target").isEmpty();
        assertThat(stack.commitsOf(ref)).containsExactly(ref.aggregateId(0));
        // The pusher's window, incomplete too, is dead-lettered as well; look at k's.
        List<Message> all = stack.drain(stack.resources.queueUrl("LateEventsQueue"));
        List<Message> side = all.stream().filter(m -> readJson(m.body()).path("key").asText().equals("k")).toList();
        assertThat(side).singleElement().satisfies(m -> {
            assertThat(m.messageAttributes().get("fanin-kind").stringValue()).isEqualTo("WINDOW_DEAD_LETTERED");
            JsonNode record = readJson(m.body());
            assertThat(record.path("reasonCode").asText()).isEqualTo("INCOMPLETE_AT_DEADLINE");
            assertThat(record.path("aggregateId").asText()).isEqualTo(ref.aggregateId(0));
            assertThat(record.path("aggregate").path("complete").asBoolean()).isFalse();
            AggregateSchema.assertValid(record.path("aggregate"));
        });
        // What the WindowsDeadLettered alarm watches: one per window dead-lettered (k's and the pusher's).
        assertThat(stack.metrics.sum(MetricNames.WINDOWS_DEAD_LETTERED)).isEqualTo(all.stream()
                .filter(m -> m.messageAttributes().get("fanin-kind").stringValue().equals("WINDOW_DEAD_LETTERED")).count());
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
        stack.assertFlushInvariants();
    }

    /**
     * A producer's resend of an event, past the lateness, reaches a window no event has written; its original, sent in
     * time and delivered again later, is judged by a watermark capped at its send time: too late as well, through the
     * real store, and the window (written closed for the verdict) never fires.
     */
    @Test
    void theOriginalOfACopyTooLateForAWindowNeverWrittenIsTooLateAsWell() {
        FaninStack stack = stack();
        stack.clock.set(W.plusSeconds(20));
        InboundMessage original = stack.message("k", "e1", W.plusSeconds(10));
        WindowRef ref = stack.ref(original);
        stack.clock.set(END.plus(LATENESS).plusSeconds(5));
        watermarkTo(stack, END.plus(LATENESS));

        BatchResult copy = stack.process().ingest().handle(List.of(stack.message("k", "e1", W.plusSeconds(10))));
        BatchResult again = stack.process().ingest().handle(FaninStack.redelivered(List.of(original)));
        stack.clock.set(W.plus(Duration.ofMinutes(30)));
        stack.process().sweep();

        assertThat(copy.tooLate()).isEqualTo(1);
        assertThat(again.tooLate()).as("judged in time by its cap, but its copy was too late first").isEqualTo(1);
        assertThat(stack.window(ref).orElseThrow().status()).isEqualTo(WindowStatus.CLOSED);
        assertThat(stack.emitted(ref.aggregateId(0))).isEmpty();
        List<Message> side = stack.drain(stack.resources.queueUrl("LateEventsQueue")).stream()
                .filter(m -> readJson(m.body()).path("eventId").asText().equals("e1")).toList();
        assertThat(side).hasSize(2);
        stack.assertFlushInvariants();
    }

    private static JsonNode readJson(String text) {
        try {
            return FaninStack.JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
