package dev.fanin.cli.replay;

import dev.fanin.testkit.CloudFormationYaml;
import dev.fanin.testkit.TemplateResources;
import java.nio.file.Path;
import java.util.Map;

/**
 * The event-source and function settings of {@code template.yaml} that the replay imitates, read from the
 * template's parameter defaults so that the replay batches and times out as a default deployment does.
 */
record TemplateSettings(int ingestBatchSize, int batchingWindowSeconds, int timerBatchSize, int timerBatchingWindowSeconds,
                        int sweeperTimeoutSeconds, int maxReceiveCount, int inputVisibilityTimeoutSeconds) {

    static TemplateSettings read(Path template) {
        Map<String, Object> yaml = CloudFormationYaml.read(template);
        Object parameters = yaml.get("Parameters");
        if (!(parameters instanceof Map<?, ?> map)) {
            throw new IllegalStateException(template + " has no Parameters section");
        }
        return new TemplateSettings(
                defaultOf(map, "IngestBatchSize", template),
                defaultOf(map, "IngestMaxBatchingWindowSeconds", template),
                defaultOf(map, "TimerBatchSize", template),
                defaultOf(map, "TimerMaxBatchingWindowSeconds", template),
                defaultOf(map, "SweeperTimeout", template),
                defaultOf(map, "MaxReceiveCount", template),
                visibilityTimeout(template));
    }

    /** The input queue's visibility timeout as a default deployment gets it (6 x the ingest timeout, plus an allowance). */
    private static int visibilityTimeout(Path template) {
        return Integer.parseInt(TemplateResources.load(template).property("InputQueue", "VisibilityTimeout").trim());
    }

    private static int defaultOf(Map<?, ?> parameters, String name, Path template) {
        Object parameter = parameters.get(name);
        if (parameter instanceof Map<?, ?> p && p.get("Default") != null) {
            return Integer.parseInt(String.valueOf(p.get("Default")).trim());
        }
        throw new IllegalStateException(template + ": parameter " + name + " with a Default is needed by the replay");
    }
}
