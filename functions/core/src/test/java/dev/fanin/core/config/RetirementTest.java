package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetirementTest {

    private static final String RUNS = """
              - name: runs
                match: [{path: $.type, equals: run}]
                key: [$.id]
                window: {type: tumbling, size: 1h}
                triggers: {maxLifetime: 2h}
            """;

    private static FaninConfig load(String pipelines) {
        return ConfigLoader.load("version: 1\npipelines:\n" + pipelines, "test.yaml");
    }

    @Test
    void aPipelineWhoseDefinitionLivesOnUnderAnotherNameWasRenamed() {
        PipelineConfig old = load(RUNS).pipelines().get(0);
        Retirement retirement = Retirement.of(old, load(RUNS.replace("name: runs", "name: jobs")));
        assertThat(retirement.change()).isEqualTo("renamed");
        assertThat(retirement.renamedTo()).isEqualTo("jobs");
    }

    /** Renamed and changed in any field (here: one each) is removed plus added, as ConfigDiff reports it. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "size: 1h|size: 30m",
            "maxLifetime: 2h|maxLifetime: 3h",
            "key: [$.id]|key: [$.runId]",
            "equals: run|equals: job"})
    void aPipelineWithNoSameDefinitionLeftWasRemoved(String from, String to) {
        PipelineConfig old = load(RUNS).pipelines().get(0);
        String next = RUNS.replace("name: runs", "name: jobs").replace(from, to);
        Retirement retirement = Retirement.of(old, load(next + RUNS.replace("name: runs", "name: unrelated").replace("1h", "5m")));
        assertThat(retirement.change()).isEqualTo("removed");
        assertThat(retirement.renamedTo()).isNull();
    }
}
