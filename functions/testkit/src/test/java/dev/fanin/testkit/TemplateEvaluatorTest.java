package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateEvaluatorTest {

    private static final String TEMPLATE = """
            Parameters:
              Timeout: { Type: Number, Default: 30, AllowedValues: [30, 60] }
              Topic: { Type: String, Default: "" }
              Names: { Type: CommaDelimitedList, Default: "a,b" }
            Conditions:
              HasTopic: !Not [!Equals [!Ref Topic, ""]]
              NoTopic: !Not [!Condition HasTopic]
            Mappings:
              Visibility:
                "30": { Seconds: 180 }
                "60": { Seconds: 360 }
            Resources:
              Queue: { Type: AWS::SQS::Queue }
            """;

    private static final TemplateEvaluator.ResourceRefs RESOURCES = new TemplateEvaluator.ResourceRefs() {
        @Override
        public String ref(String logicalId) {
            return "url-of-" + logicalId;
        }

        @Override
        public String attribute(String logicalId, String attribute) {
            return attribute + "-of-" + logicalId;
        }
    };

    private TemplateEvaluator evaluator(Map<String, String> parameters) {
        return new TemplateEvaluator(CloudFormationYaml.parse(TEMPLATE), parameters,
                Map.of("AWS::StackName", "stack", "AWS::Region", "us-east-1"), RESOURCES);
    }

    private Object eval(String yaml, Map<String, String> parameters) {
        return evaluator(parameters).evaluate(CloudFormationYaml.parse("v: " + yaml).get("v"), "v");
    }

    @Test
    void findInMapKeyedByAParameterFollowsTheParameter() {
        assertThat(eval("!FindInMap [Visibility, !Ref Timeout, Seconds]", Map.of())).isEqualTo(180);
        assertThat(eval("!FindInMap [Visibility, !Ref Timeout, Seconds]", Map.of("Timeout", "60"))).isEqualTo(360);
    }

    @Test
    void overridesOutsideAllowedValuesAreRefused() {
        assertThatThrownBy(() -> evaluator(Map.of("Timeout", "45"))).hasMessageContaining("Timeout=45");
        assertThatThrownBy(() -> evaluator(Map.of("Nope", "1"))).hasMessageContaining("Nope");
    }

    @Test
    void subReplacesParametersPseudoParametersAttributesAndKeepsEscapes() {
        assertThat(eval("!Sub '${AWS::StackName}-${Timeout}-${Queue.Arn}-${!Literal}'", Map.of()))
                .isEqualTo("stack-30-Arn-of-Queue-${Literal}");
        assertThat(eval("!Sub ['${X}/${Queue}', {X: !Ref Timeout}]", Map.of())).isEqualTo("30/url-of-Queue");
    }

    @Test
    void ifWithNoValueRemovesTheKey() {
        Object value = eval("{ Actions: !If [HasTopic, [!Ref Topic], !Ref AWS::NoValue], Keep: 1 }", Map.of());
        assertThat(value).isEqualTo(Map.of("Keep", 1));
        Object withTopic = eval("{ Actions: !If [HasTopic, [!Ref Topic], !Ref AWS::NoValue] }", Map.of("Topic", "t"));
        assertThat(withTopic).isEqualTo(Map.of("Actions", List.of("t")));
        assertThat(evaluator(Map.of()).condition("NoTopic")).isTrue();
    }

    @Test
    void listParametersJoinSelectAndSplit() {
        assertThat(eval("!Join ['-', !Ref Names]", Map.of())).isEqualTo("a-b");
        assertThat(eval("!Select [1, !Split [',', 'x,y,z']]", Map.of())).isEqualTo("y");
    }

    @Test
    void unsupportedIntrinsicsFailNamingWhere() {
        assertThatThrownBy(() -> eval("{ Body: !Base64 abc }", Map.of()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("v.Body.Fn::Base64");
        assertThatThrownBy(() -> eval("!Ref Missing", Map.of())).hasMessageContaining("Missing");
    }
}
