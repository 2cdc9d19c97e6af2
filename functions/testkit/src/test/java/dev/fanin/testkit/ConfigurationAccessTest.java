package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The functions may read exactly their configuration location: the template's ReadConfigurationPolicy, evaluated
 * for each form of PipelineConfigLocation (a location in the jar or a file needs no policy).
 */
class ConfigurationAccessTest {

    private static final Map<String, Object> TEMPLATE = CloudFormationYaml.read(TemplateResources.locateTemplate());
    private static final Map<String, String> PSEUDO = Map.of("AWS::Partition", "aws", "AWS::Region", "eu-west-1",
            "AWS::AccountId", "123456789012", "AWS::StackName", "fanin", "AWS::NoValue", "");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "s3://acme-config/fanin/pipelines.yaml | s3:GetObject | arn:aws:s3:::acme-config/fanin/pipelines.yaml",
            "ssm:/fanin/prod/pipelines | ssm:GetParameter | arn:aws:ssm:eu-west-1:123456789012:parameter/fanin/prod/pipelines",
            "appconfig:fanin/prod/pipelines | appconfig:StartConfigurationSession appconfig:GetLatestConfiguration"
                    + " | arn:aws:appconfig:eu-west-1:123456789012:application/*",
            "classpath:fanin/pipelines.yaml | |",
            "file:/opt/fanin/pipelines.yaml | |"})
    void eachLocationGetsReadAccessToItselfOnly(String location, String actions, String resource) {
        TemplateEvaluator evaluator = new TemplateEvaluator(TEMPLATE, Map.of("PipelineConfigLocation", location), PSEUDO, null);
        boolean outside = evaluator.condition("ConfigOutsideTheJar");
        assertThat(outside).isEqualTo(actions != null);
        if (!outside) {
            return;
        }
        Object policy = map(map(map(TEMPLATE.get("Resources")).get("ReadConfigurationPolicy")).get("Properties")).get("PolicyDocument");
        List<?> statements = (List<?>) map(evaluator.evaluate(policy, "ReadConfigurationPolicy")).get("Statement");
        assertThat(statements).singleElement().satisfies(statement -> {
            Object action = map(statement).get("Action");
            assertThat(action instanceof List<?> l ? l : List.of(action)).containsExactlyElementsOf(List.of(actions.split(" ")));
            assertThat(map(statement).get("Resource")).isEqualTo(resource);
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }
}
