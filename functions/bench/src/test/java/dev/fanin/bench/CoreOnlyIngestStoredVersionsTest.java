package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.window.WindowStatus;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench's core-only path (its CPU comparison) keeps its windows in memory as the store would, their version moving
 * with each write: the machine treats a window at version 0 as never stored, so a window that counted events and then
 * met only too-late ones was closed as one kept for their verdicts, and its count lost (a review).
 */
class CoreOnlyIngestStoredVersionsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final String YAML = "version: 1\npipelines:\n  - name: p\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
            + "    eventTime: {path: $.t}\n    window: {type: tumbling, size: 1m}\n    triggers: {maxLifetime: 30m}\n"
            + "    watermark: {outOfOrderness: 10s, idleAfter: 5m}\n    allowedLateness: 1m\n    aggregations: [{name: n, type: count}]\n"
            + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";

    @Test
    void aTooLateEventDoesNotCloseAWindowThatCountedEvents() throws Exception {
        CoreOnlyIngest core = new CoreOnlyIngest(ConfigLoader.load(YAML, "test"));
        send(core, "e1", "a", T0.plusSeconds(10), T0.plusSeconds(30));
        send(core, "x", "b", T0.plus(Duration.ofMinutes(5)), T0.plus(Duration.ofMinutes(5)));
        send(core, "e2", "a", T0.plusSeconds(20), T0.plus(Duration.ofMinutes(5)).plusSeconds(5));

        WindowState window = windowsOf(core, "a").values().iterator().next();
        assertThat(window.revisionEvents()).isEqualTo(1);
        assertThat(window.keepsVerdictsOnly()).as("e1's window, closing by the watermark with e1 counted").isFalse();
        assertThat(window.status()).isEqualTo(WindowStatus.CLAIMED);
    }

    private static void send(CoreOnlyIngest core, String id, String key, Instant eventTime, Instant now) {
        String body = "{\"k\":\"" + key + "\",\"id\":\"" + id + "\",\"t\":" + eventTime.toEpochMilli() + "}";
        core.handle(List.of(new InboundMessage("m-" + id, body, 1, now, now, Map.of())), now);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, WindowState> windowsOf(CoreOnlyIngest core, String key) throws Exception {
        Field f = CoreOnlyIngest.class.getDeclaredField("windowsByKey");
        f.setAccessible(true);
        return ((Map<String, Map<String, WindowState>>) f.get(core)).get("p\u0000" + key);
    }
}
