package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.service.FaninSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pipeline's definition that could not be recorded (the store unavailable) was taken as recorded whenever the
 * pipeline had a record at all, so ingest opened windows under a longer maxLifetime than the history sweeps: removed
 * before the next refresh recorded it, the pipeline's windows could outlive its sweeps (a review). Only a record that
 * already sweeps long enough for the definition in force lets a failed write wait.
 */
class HistoryRecordFailureTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private static String config(String maxLifetime) {
        return "version: 1\npipelines:\n  - name: a\n    envelope: raw\n    key: [$.k]\n    eventId: $.id\n"
                + "    eventTime: {path: $.t}\n    window: {type: tumbling, size: 1m}\n    triggers: {maxLifetime: " + maxLifetime + "}\n"
                + "    watermark: {outOfOrderness: 0s, idleAfter: 5m}\n    retention: 30d\n"
                + "    emit: {sqs: {queueUrl: \"https://sqs.us-east-1.amazonaws.com/1/out\"}}\n";
    }

    /** The history of DeploymentRetirementTest, whose writes fail on demand. */
    static final class FailingHistory extends DeploymentRetirementTest.MemHistory {
        boolean failing;

        @Override
        public synchronized void record(List<Definition> definitions) {
            if (failing) {
                throw new StoreUnavailableException("throttled", null);
            }
            super.record(definitions);
        }
    }

    private final FailingHistory history = new FailingHistory();
    private final PipelineRetirement retirement = new PipelineRetirement(history, FaninSettings.defaults().lease(), Duration.ofMinutes(1));

    @Test
    void aLongerDefinitionNotRecordedIsNotTakenAsRecorded() {
        retirement.update(ConfigLoader.load(config("10m"), "c1"), config("10m"), T0);
        history.failing = true;

        assertThatThrownBy(() -> retirement.update(ConfigLoader.load(config("3d"), "c2"), config("3d"), T0.plusSeconds(60)))
                .isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void aRenewalOrAShorterDefinitionNotRecordedWaitsForTheNextRefresh() {
        retirement.update(ConfigLoader.load(config("3d"), "c1"), config("3d"), T0);
        history.failing = true;

        assertThat(retirement.update(ConfigLoader.load(config("10m"), "c2"), config("10m"), T0.plusSeconds(60)).pipelines()).isEmpty();
        assertThat(retirement.update(ConfigLoader.load(config("3d"), "c1"), config("3d"), T0.plus(Duration.ofHours(13))).pipelines())
                .as("a renewal half a margin late").isEmpty();
    }
}
