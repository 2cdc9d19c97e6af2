package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cfn-lint (SAM-aware) must report nothing on the repository's template.yaml. */
class TemplateLintTest {

    private static final Path TEMPLATE = Path.of("../../template.yaml");

    @Test
    void templateHasNoLintFindings() {
        assertThat(TEMPLATE).as("template.yaml at the repository root").isRegularFile();
        cfnLint(TEMPLATE).succeeded();
    }

    /** Proves the check can fail: a misspelt SAM event property must be reported. */
    @Test
    void lintReportsABrokenTemplate(@TempDir Path directory) throws IOException {
        Path broken = directory.resolve("broken.yaml");
        Files.writeString(broken, """
                Transform: AWS::Serverless-2016-10-31
                Resources:
                  Queue:
                    Type: AWS::SQS::Queue
                  Fn:
                    Type: AWS::Serverless::Function
                    Properties:
                      Runtime: java21
                      Handler: a.B::handleRequest
                      CodeUri: x.jar
                      Events:
                        In:
                          Type: SQS
                          Properties:
                            Queue: !GetAtt Queue.Arn
                            FunctionResponseType: [ReportBatchItemFailures]
                """);

        ToolRun lint = cfnLint(broken);

        assertThat(lint.exitCode()).as(lint.output()).isNotZero();
        assertThat(lint.output()).contains("E0001");
    }

    private static ToolRun cfnLint(Path template) {
        return ToolRun.of(List.of("cfn-lint", "--", template.toAbsolutePath().toString()), Path.of("."), Duration.ofSeconds(120));
    }
}
