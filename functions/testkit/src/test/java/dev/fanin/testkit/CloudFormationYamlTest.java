package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CloudFormationYamlTest {

    @Test
    void shortFormIntrinsicsBecomeLongForm() {
        Map<String, Object> template = CloudFormationYaml.parse("""
                A: !Ref Param
                B: !GetAtt Queue.Arn
                C: !GetAtt [Queue, QueueName]
                D: !Sub "${AWS::StackName}-x"
                E: !Sub ["${X}", {X: !Ref Y}]
                F: !If [Cond, !Not [!Equals [!Ref P, ""]], !Ref AWS::NoValue]
                G: !FindInMap [M, !Ref K, Seconds]
                H: !GetAtt Table.StreamSpecification.StreamArn
                I: !Condition Other
                Version: 2012-10-17
                """);

        assertThat(template.get("A")).isEqualTo(Map.of("Ref", "Param"));
        assertThat(template.get("B")).isEqualTo(Map.of("Fn::GetAtt", List.of("Queue", "Arn")));
        assertThat(template.get("C")).isEqualTo(Map.of("Fn::GetAtt", List.of("Queue", "QueueName")));
        assertThat(template.get("D")).isEqualTo(Map.of("Fn::Sub", "${AWS::StackName}-x"));
        assertThat(template.get("E")).isEqualTo(Map.of("Fn::Sub", List.of("${X}", Map.of("X", Map.of("Ref", "Y")))));
        assertThat(template.get("F")).isEqualTo(Map.of("Fn::If", List.of("Cond",
                Map.of("Fn::Not", List.of(Map.of("Fn::Equals", List.of(Map.of("Ref", "P"), "")))),
                Map.of("Ref", "AWS::NoValue"))));
        assertThat(template.get("G")).isEqualTo(Map.of("Fn::FindInMap", List.of("M", Map.of("Ref", "K"), "Seconds")));
        assertThat(template.get("H")).isEqualTo(Map.of("Fn::GetAtt", List.of("Table", "StreamSpecification.StreamArn")));
        assertThat(template.get("I")).isEqualTo(Map.of("Condition", "Other"));
        assertThat(template.get("Version")).isEqualTo("2012-10-17");
    }

    @Test
    void duplicateKeysAreRejectedAsCloudFormationDoes() {
        assertThatThrownBy(() -> CloudFormationYaml.parse("A: 1\nA: 2\n")).hasMessageContaining("duplicate key");
    }

    @Test
    void aGetAttWithoutAttributeIsRejected() {
        assertThatThrownBy(() -> CloudFormationYaml.parse("A: !GetAtt Queue\n")).hasMessageContaining("!GetAtt");
    }

    @Test
    void theRepositoryTemplateParses() {
        Map<String, Object> template = CloudFormationYaml.read(TemplateResources.locateTemplate());
        assertThat(template).containsKeys("Parameters", "Resources", "Outputs");
    }
}
