package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each queue a function consumes keeps a received message invisible for as long as AWS's guidance for SQS event
 * sources asks: 6 x the function's timeout plus the longest the message can wait in the event source before the
 * invocation starts (its batching window, and at least the 20 s long poll). Shorter, and the message is handed out
 * again while it waits or is processed, which counts towards maxReceiveCount. Every allowed timeout, batching windows
 * at and around the template's boundary.
 */
class QueueVisibilityTest {

    private static final Map<String, Object> TEMPLATE = CloudFormationYaml.read(TemplateResources.locateTemplate());
    private static final int LONG_POLL_SECONDS = 20;

    static Stream<Arguments> inputSettings() {
        return allowedTimeouts("IngestTimeout").stream()
                .flatMap(timeout -> Stream.of(0, 1, 19, 20, 21, 120, 300).map(window -> Arguments.of(timeout, window)));
    }

    static Stream<Arguments> timerSettings() {
        return allowedTimeouts("TimerTimeout").stream()
                .flatMap(timeout -> Stream.of(0, 1, 10).map(window -> Arguments.of(timeout, window)));
    }

    @ParameterizedTest(name = "IngestTimeout {0}, IngestMaxBatchingWindowSeconds {1}")
    @MethodSource("inputSettings")
    void theInputQueueCoversSixTimeoutsAndTheBatchingWindow(int timeout, int window) {
        int visibility = visibility("InputQueue", Map.of("IngestTimeout", String.valueOf(timeout),
                "IngestMaxBatchingWindowSeconds", String.valueOf(window)));

        assertThat(visibility).isGreaterThanOrEqualTo(6 * timeout + Math.max(window, LONG_POLL_SECONDS));
        // Never more than the longest window's allowance: a failed message is retried after this long.
        assertThat(visibility).isLessThanOrEqualTo(6 * timeout + (window <= LONG_POLL_SECONDS ? LONG_POLL_SECONDS : 300));
    }

    @ParameterizedTest(name = "TimerTimeout {0}, TimerMaxBatchingWindowSeconds {1}")
    @MethodSource("timerSettings")
    void theTimerQueueCoversSixTimeoutsAndTheBatchingWindow(int timeout, int window) {
        int visibility = visibility("TimerQueue", Map.of("TimerTimeout", String.valueOf(timeout),
                "TimerMaxBatchingWindowSeconds", String.valueOf(window)));

        assertThat(visibility).isEqualTo(6 * timeout + LONG_POLL_SECONDS);
    }

    private static int visibility(String queue, Map<String, String> parameters) {
        TemplateEvaluator evaluator = new TemplateEvaluator(TEMPLATE, parameters, Map.of(), null);
        Object value = map(map(map(TEMPLATE.get("Resources")).get(queue)).get("Properties")).get("VisibilityTimeout");
        return Integer.parseInt(evaluator.evaluateString(value, queue + ".VisibilityTimeout"));
    }

    private static List<Integer> allowedTimeouts(String parameter) {
        List<?> allowed = (List<?>) map(map(TEMPLATE.get("Parameters")).get(parameter)).get("AllowedValues");
        assertThat(allowed).isNotEmpty();
        return allowed.stream().map(v -> Integer.parseInt(String.valueOf(v))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
