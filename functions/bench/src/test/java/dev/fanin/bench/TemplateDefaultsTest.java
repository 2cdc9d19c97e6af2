package dev.fanin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.testkit.CloudFormationYaml;
import dev.fanin.testkit.TemplateResources;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code fanin bench} runs the template's ingest defaults unless told otherwise, so its throughput is the default's,
 * and its sweeper on the template's shard threads and schedules, so its Lambda time is the default's; it prices that
 * time at the memory and on the architecture the template deploys.
 */
class TemplateDefaultsTest {

    @Test
    void theBenchsIngestDefaultsAreTheTemplates() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());

        assertThat(defaultOf(template, "IngestBatchSize")).isEqualTo(BenchMain.DEFAULT_BATCH_SIZE);
        assertThat(defaultOf(template, "IngestMaxConcurrency")).isEqualTo(BenchMain.DEFAULT_MAX_CONCURRENCY);
        int windowSeconds = defaultOf(template, "IngestMaxBatchingWindowSeconds");
        // No batching window is run as the 100 ms a poll takes to fill a batch.
        assertThat(BenchMain.DEFAULT_BATCHING_WINDOW_MS).isEqualTo(windowSeconds == 0 ? 100 : windowSeconds * 1_000L);
    }

    @Test
    void theBenchsTimerQueueBatchesAsTheTemplatesMapping() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());

        assertThat(mapping(template, "TimerFunction", "Timers")).containsEntry("MaximumBatchingWindowInSeconds",
                Map.of("Ref", "TimerMaxBatchingWindowSeconds"));
        assertThat(defaultOf(template, "TimerBatchSize")).isEqualTo(Simulation.TIMER_QUEUE.size());
        assertThat(defaultOf(template, "TimerMaxBatchingWindowSeconds") * 1_000L).isEqualTo(Simulation.TIMER_QUEUE.window().toMillis());
    }

    @Test
    void theBenchsSweeperWorksAsManyShardsAtOnceAsTheTemplates() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());

        assertThat(defaultOf(template, "SweepParallelism")).isEqualTo(Simulation.SWEEP_PARALLELISM);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBenchsSweeperRunsTheTemplatesSchedules() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());
        Map<String, Object> sweeper = (Map<String, Object>) ((Map<String, Object>) template.get("Resources")).get("SweeperFunction");
        Map<String, Object> events = (Map<String, Object>) ((Map<String, Object>) sweeper.get("Properties")).get("Events");
        Map<String, Object> hourly = (Map<String, Object>) ((Map<String, Object>) events.get("SweepEveryShard")).get("Properties");
        Map<String, Object> parameters = (Map<String, Object>) template.get("Parameters");

        assertThat(((Map<String, Object>) parameters.get("SweepSchedule")).get("Default"))
                .isEqualTo("rate(" + Simulation.SWEEP_EVERY.toMinutes() + " minute)");
        assertThat(hourly.get("Schedule")).isEqualTo("rate(" + Simulation.EVERY_SHARD_EVERY.toHours() + " hour)");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBenchPricesLambdaAsTheTemplateDeploysIt() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());
        Map<String, Object> function = (Map<String, Object>) ((Map<String, Object>) template.get("Globals")).get("Function");
        PriceTable prices = PriceTable.usEast1();

        assertThat(function.get("Architectures")).asList().containsExactly("arm64");
        assertThat(prices.perGbSecond()).as("AWS's arm64 price per GB-second, us-east-1").isEqualTo(ARM64_PER_GB_SECOND);
        assertThat(prices.lambdaMemoryGb() * 1024).isEqualTo(defaultOf(template, "FunctionMemorySize"));
    }

    /** Published at aws.amazon.com/lambda/pricing (the x86 rate is 0.0000166667). */
    private static final double ARM64_PER_GB_SECOND = 0.0000133334;

    @Test
    void theBenchPollsWithAsManyPollersAsTheTemplatesMappingsKeep() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());

        // A mapping with a concurrency cap keeps five pollers at low traffic; one without may scale back to two.
        assertThat(mapping(template, "IngestFunction", "Input")).containsKey("ScalingConfig");
        assertThat(EventSourcePolls.FANIN_INPUT.pollers()).isEqualTo(5);
        assertThat(mapping(template, "TimerFunction", "Timers")).doesNotContainKey("ScalingConfig");
        assertThat(EventSourcePolls.FANIN_TIMERS.pollers()).isEqualTo(2);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapping(Map<String, Object> template, String function, String event) {
        Map<String, Object> resource = (Map<String, Object>) ((Map<String, Object>) template.get("Resources")).get(function);
        Map<String, Object> events = (Map<String, Object>) ((Map<String, Object>) resource.get("Properties")).get("Events");
        return (Map<String, Object>) ((Map<String, Object>) events.get(event)).get("Properties");
    }

    @SuppressWarnings("unchecked")
    private static int defaultOf(Map<String, Object> template, String parameter) {
        Map<String, Object> parameters = (Map<String, Object>) template.get("Parameters");
        Object value = ((Map<String, Object>) parameters.get(parameter)).get("Default");
        return Integer.parseInt(value.toString());
    }
}
