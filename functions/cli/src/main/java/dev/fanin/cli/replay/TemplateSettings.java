package dev.fanin.cli.replay;

import dev.fanin.testkit.TemplateResources;
import java.nio.file.Path;

/**
 * The event-source and function settings of {@code template.yaml} that the replay imitates, read from the
 * template's parameter defaults so that the replay batches and times out as a default deployment does.
 */
record TemplateSettings(int ingestBatchSize, int batchingWindowSeconds, int timerBatchSize, int timerBatchingWindowSeconds,
                        int sweeperTimeoutSeconds, int maxReceiveCount, int inputVisibilityTimeoutSeconds) {

    static TemplateSettings read(Path template) {
        TemplateResources defaults = TemplateResources.load(template);
        return new TemplateSettings(
                number(defaults.parameter("IngestBatchSize")),
                number(defaults.parameter("IngestMaxBatchingWindowSeconds")),
                number(defaults.parameter("TimerBatchSize")),
                number(defaults.parameter("TimerMaxBatchingWindowSeconds")),
                number(defaults.parameter("SweeperTimeout")),
                number(defaults.parameter("MaxReceiveCount")),
                // As a default deployment gets it: 6 x the ingest timeout, plus the batching window's allowance.
                number(defaults.property("InputQueue", "VisibilityTimeout")));
    }

    private static int number(String value) {
        return Integer.parseInt(value.trim());
    }
}
