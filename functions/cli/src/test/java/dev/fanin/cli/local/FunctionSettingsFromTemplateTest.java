package dev.fanin.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.testkit.CloudFormationYaml;
import dev.fanin.testkit.TemplateResources;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FunctionSettingsFromTemplateTest {

    @Test
    void readsTheEventSourcesTimeoutsAndScheduleOfTheRepositoryTemplate() {
        FunctionSettingsFromTemplate s = FunctionSettingsFromTemplate.read(TemplateResources.locateTemplate());

        assertThat(s.ingest()).isEqualTo(new FunctionSettingsFromTemplate.EventSource("IngestFunction", 100, Duration.ofSeconds(1), Duration.ofSeconds(30)));
        assertThat(s.timer()).isEqualTo(new FunctionSettingsFromTemplate.EventSource("TimerFunction", 10, Duration.ofSeconds(1), Duration.ofSeconds(30)));
        assertThat(s.sweepTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.sweepSchedule()).isEqualTo("rate(1 minute)");
        assertThat(FunctionSettingsFromTemplate.describeSchedule(s.sweepSchedule())).isEqualTo("every 1 minute");
    }

    @Test
    void literalsAndParameterDefaultsAreReadAndAnythingElseIsRefused() {
        String template = """
                Parameters:
                  Size: {Type: Number, Default: 25}
                Resources:
                  IngestFunction:
                    Properties:
                      Timeout: 45
                      Events:
                        In: {Type: SQS, Properties: {BatchSize: !Ref Size, MaximumBatchingWindowInSeconds: 2}}
                  TimerFunction:
                    Properties:
                      Events:
                        In: {Type: SQS, Properties: {BatchSize: !Sub "${Size}"}}
                  SweeperFunction:
                    Properties:
                      Timeout: 60
                      Events:
                        S: {Type: Schedule, Properties: {Schedule: "cron(0 * * * ? *)"}}
                """;
        assertThatThrownBy(() -> FunctionSettingsFromTemplate.from(CloudFormationYaml.parse(template)))
                .hasMessageContaining("TimerFunction.BatchSize should be a literal or a Ref to a parameter");
        FunctionSettingsFromTemplate s = FunctionSettingsFromTemplate.from(CloudFormationYaml.parse(template.replace("!Sub \"${Size}\"", "3")));
        assertThat(s.ingest()).isEqualTo(new FunctionSettingsFromTemplate.EventSource("IngestFunction", 25, Duration.ofSeconds(2), Duration.ofSeconds(45)));
        assertThat(s.timer().batchSize()).isEqualTo(3);
        assertThat(FunctionSettingsFromTemplate.describeSchedule(s.sweepSchedule())).isEqualTo("cron(0 * * * ? *)");
    }
}
