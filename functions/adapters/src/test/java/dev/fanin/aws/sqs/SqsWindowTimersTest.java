package dev.fanin.aws.sqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.support.MotoServer;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

class SqsWindowTimersTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void delayRoundsUpToWholeSecondsAndClampsToWhatSqsAllows() {
        assertThat(SqsWindowTimers.delaySeconds(NOW.minusSeconds(5), NOW)).isZero();
        assertThat(SqsWindowTimers.delaySeconds(NOW.minusMillis(1), NOW)).isZero();
        assertThat(SqsWindowTimers.delaySeconds(NOW, NOW)).isZero();
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusMillis(1), NOW)).isEqualTo(1);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusSeconds(1), NOW)).isEqualTo(1);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusMillis(1001), NOW)).isEqualTo(2);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusSeconds(899).plusMillis(1), NOW)).isEqualTo(900);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusSeconds(900), NOW)).isEqualTo(900);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plusSeconds(900).plusMillis(1), NOW)).isEqualTo(900);
        assertThat(SqsWindowTimers.delaySeconds(NOW.plus(Duration.ofDays(3)), NOW)).isEqualTo(900);
    }

    @Test
    void bodyIsExactlyTheDocumentedJsonAndParsesBack() {
        WindowRef ref = new WindowRef("alerts", "acct\"1|x#\u00e9", "S000000000001000");
        TimerMessage message = new TimerMessage(new WindowTimers.Wakeup(ref, Instant.parse("2026-01-01T00:00:12.345Z"), 7));
        assertThat(message.toJson()).isEqualTo(
                "{\"pipeline\":\"alerts\",\"key\":\"acct\\\"1|x#\u00e9\",\"windowId\":\"S000000000001000\",\"dueAt\":\"2026-01-01T00:00:12.345Z\","
                        + "\"chain\":7}");
        assertThat(TimerMessage.parse(message.toJson())).isEqualTo(message);
    }

    @Test
    void aKeyWithCharactersSqsRefusesIsEscapedInTheBodyAndReadsBackExactly() {
        // Keys may hold U+FFFF (valid Unicode, refused by SQS): raw in the body, the timer was never sent.
        WindowRef ref = new WindowRef("alerts", "a\uffff|b\ufffe\ud83d\ude80", "S000000000001000");
        TimerMessage message = new TimerMessage(new WindowTimers.Wakeup(ref, Instant.parse("2026-01-01T00:00:12.345Z"), 7));

        assertThat(message.toJson()).contains("\"key\":\"a\\uFFFF|b\\uFFFE\ud83d\ude80\"");
        assertThat(dev.fanin.core.text.SinkText.isValid(message.toJson())).isTrue();
        assertThat(TimerMessage.parse(message.toJson())).isEqualTo(message);
    }

    @Test
    void aBodyWithoutChainReadsAsChainZero() {
        // Armed by a version before timer chains had ids (see Visitor.Timer#continues).
        TimerMessage message = TimerMessage.parse("{\"pipeline\":\"a\",\"key\":\"k\",\"windowId\":\"T1\",\"dueAt\":\"2026-01-01T00:00:05Z\"}");
        assertThat(message.wakeup().chain()).isZero();
    }

    @Test
    void parserNamesWhatIsWrong() {
        assertThatThrownBy(() -> TimerMessage.parse("nope")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> TimerMessage.parse("{\"pipeline\":\"a\",\"key\":\"k\",\"dueAt\":\"2026-01-01T00:00:00Z\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'windowId'");
        assertThatThrownBy(() -> TimerMessage.parse("{\"pipeline\":\"a\",\"key\":\"k\",\"windowId\":\"T1\",\"dueAt\":\"tomorrow\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dueAt").hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> TimerMessage.parse("{\"pipeline\":\"a\",\"key\":\"k\",\"windowId\":\"T1\",\"dueAt\":\"2026-01-01T00:00:00Z\",\"chain\":\"7\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chain must be a non-negative integer");
        assertThatThrownBy(() -> TimerMessage.parse("{\"pipeline\":\"a\",\"key\":\"k\",\"windowId\":\"T1\",\"dueAt\":\"2026-01-01T00:00:00Z\",\"chain\":-1}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chain must be a non-negative integer");
    }

    @Test
    void armSendsTheTimerWithItsDelay() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String queueUrl = sqs.createQueue(b -> b.queueName("timers-" + UUID.randomUUID())).queueUrl();
            SqsWindowTimers timers = new SqsWindowTimers(sqs, queueUrl);
            WindowRef due = new WindowRef("alerts", "k1", "T1");
            WindowRef later = new WindowRef("alerts", "k2", "T1");
            WindowTimers.Wakeup inThirtySeconds = new WindowTimers.Wakeup(later, NOW.plusSeconds(30), 1);
            assertThat(timers.request(inThirtySeconds, NOW).delaySeconds()).isEqualTo(30);

            timers.arm(inThirtySeconds, NOW);
            timers.arm(new WindowTimers.Wakeup(due, NOW.minusSeconds(1), 3), NOW);
            List<Message> received = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages();
            assertThat(received).extracting(m -> TimerMessage.parse(m.body()).wakeup())
                    .containsExactly(new WindowTimers.Wakeup(due, NOW.minusSeconds(1), 3));
        }
    }

    @Test
    void armAllSendsTenTimersPerRequestEachWithItsOwnDelay() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            String queueUrl = sqs.createQueue(b -> b.queueName("timers-" + UUID.randomUUID())).queueUrl();
            SqsWindowTimers timers = new SqsWindowTimers(sqs, queueUrl);
            List<WindowTimers.Wakeup> wakeups = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++) {
                // Even windows are due already, odd ones in 30 s.
                Instant dueAt = i % 2 == 0 ? NOW.minusSeconds(1) : NOW.plusSeconds(30);
                wakeups.add(new WindowTimers.Wakeup(new WindowRef("alerts", "k" + i, "T1"), dueAt, 1));
            }
            assertThat(timers.batchRequest(wakeups.subList(0, 10), NOW).entries())
                    .extracting(e -> e.delaySeconds()).containsExactly(0, 30, 0, 30, 0, 30, 0, 30, 0, 30);

            assertThat(timers.armAll(wakeups, NOW)).as("not armed").isEmpty();

            java.util.Set<WindowRef> received = new java.util.HashSet<>();
            for (int attempt = 0; attempt < 5 && received.size() < 6; attempt++) {
                sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()
                        .forEach(m -> received.add(TimerMessage.parse(m.body()).wakeup().ref()));
            }
            assertThat(received).extracting(WindowRef::key).containsExactlyInAnyOrder("k0", "k2", "k4", "k6", "k8", "k10");
        }
    }

    @Test
    void armAllReportsTheTimersItCouldNotSend() {
        try (SqsClient sqs = MotoServer.get().sqs()) {
            SqsWindowTimers timers = new SqsWindowTimers(sqs, "http://127.0.0.1:1/000000000000/no-such-queue");
            WindowTimers.Wakeup wakeup = new WindowTimers.Wakeup(new WindowRef("alerts", "k1", "T1"), NOW, 1);
            assertThat(timers.armAll(List.of(wakeup), NOW)).containsExactly(wakeup);
        }
    }

    @Test
    void aTimerSqsFailedTransientlyIsSentAgainAfterABackoff() {
        FailsFirstEntry fault = new FailsFirstEntry(1, false);
        try (SqsClient sqs = MotoServer.get().sqs(fault)) {
            String queueUrl = sqs.createQueue(b -> b.queueName("timers-" + UUID.randomUUID())).queueUrl();
            List<Duration> sleeps = new java.util.ArrayList<>();
            SqsWindowTimers timers = new SqsWindowTimers(sqs, queueUrl, new RetryPolicy(3, Duration.ofMillis(100), sleeps::add));
            List<WindowTimers.Wakeup> wakeups = wakeups(3);

            assertThat(timers.armAll(wakeups, NOW)).as("not armed").isEmpty();

            assertThat(fault.callSizes).containsExactly(3, 1);
            assertThat(sleeps).containsExactly(Duration.ofMillis(100));
            assertThat(receive(sqs, queueUrl, 3)).containsExactlyInAnyOrder("k0", "k1", "k2");
        }
    }

    @Test
    void aTimerSqsRefusedAsTheSendersFaultIsNotSentAgainAndComesBack() {
        FailsFirstEntry fault = new FailsFirstEntry(Integer.MAX_VALUE, true);
        try (SqsClient sqs = MotoServer.get().sqs(fault)) {
            String queueUrl = sqs.createQueue(b -> b.queueName("timers-" + UUID.randomUUID())).queueUrl();
            List<Duration> sleeps = new java.util.ArrayList<>();
            SqsWindowTimers timers = new SqsWindowTimers(sqs, queueUrl, new RetryPolicy(3, Duration.ofMillis(100), sleeps::add));
            List<WindowTimers.Wakeup> wakeups = wakeups(3);

            assertThat(timers.armAll(wakeups, NOW)).containsExactly(wakeups.get(0));

            assertThat(fault.callSizes).containsExactly(3);
            assertThat(sleeps).isEmpty();
            assertThat(receive(sqs, queueUrl, 2)).containsExactlyInAnyOrder("k1", "k2");
        }
    }

    private static List<WindowTimers.Wakeup> wakeups(int n) {
        List<WindowTimers.Wakeup> wakeups = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            wakeups.add(new WindowTimers.Wakeup(new WindowRef("alerts", "k" + i, "T1"), NOW.minusSeconds(1), 1));
        }
        return wakeups;
    }

    /** The keys of the timers on the queue, read until {@code expected} have come or five receives passed. */
    private static List<String> receive(SqsClient sqs, String queueUrl, int expected) {
        List<String> keys = new java.util.ArrayList<>();
        for (int attempt = 0; attempt < 5 && keys.size() < expected; attempt++) {
            sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()
                    .forEach(m -> keys.add(TimerMessage.parse(m.body()).wakeup().ref().key()));
        }
        return keys;
    }

    /**
     * For its first {@code calls} SendMessageBatch calls, keeps the first entry from reaching the queue and reports it
     * failed, as SQS does: a sender's fault ({@code senderFault}) or its own ({@code InternalError}); records each call's size.
     */
    private static final class FailsFirstEntry implements ExecutionInterceptor {
        final List<Integer> callSizes = new java.util.ArrayList<>();
        private final boolean senderFault;
        private int calls;
        private SendMessageBatchRequestEntry heldBack;

        FailsFirstEntry(int calls, boolean senderFault) {
            this.calls = calls;
            this.senderFault = senderFault;
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof SendMessageBatchRequest request)) {
                return context.request();
            }
            callSizes.add(request.entries().size());
            heldBack = calls-- > 0 && request.entries().size() > 1 ? request.entries().get(0) : null;
            return heldBack == null ? request : request.toBuilder().entries(request.entries().subList(1, request.entries().size())).build();
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (!(context.response() instanceof SendMessageBatchResponse response) || heldBack == null) {
                return context.response();
            }
            List<BatchResultErrorEntry> failed = new java.util.ArrayList<>(response.failed());
            failed.add(BatchResultErrorEntry.builder().id(heldBack.id()).senderFault(senderFault)
                    .code(senderFault ? "InvalidParameterValue" : "InternalError").message("injected").build());
            return response.toBuilder().failed(failed).build();
        }
    }
}
