package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cfn-lint (SAM-aware) must report nothing on the repository's template.yaml. */
class TemplateLintTest {

    private static final Path TEMPLATE = Path.of("../../template.yaml");

    @Test
    void templateHasNoLintFindings() {
        assertThat(TEMPLATE).as("template.yaml at the repository root").isRegularFile();
        Lint lint = cfnLint(TEMPLATE);
        if (lint.exitCode() != 0) {
            fail("cfn-lint " + TEMPLATE + " exited " + lint.exitCode() + " with findings:\n" + lint.output());
        }
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

        Lint lint = cfnLint(broken);

        assertThat(lint.exitCode()).as(lint.output()).isNotZero();
        assertThat(lint.output()).contains("E0001");
    }

    private record Lint(int exitCode, String output) {
    }

    private static Lint cfnLint(Path template) {
        List<String> command = List.of("cfn-lint", "--", template.toString());
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException missing) {
            return fail("cfn-lint is not installed or not on PATH (" + missing.getMessage() + "). It is part of this"
                    + " machine kind and of CI; install it with: pip install cfn-lint==1.51.0");
        }
        try {
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return fail("cfn-lint did not finish within 120 s");
            }
            return new Lint(process.exitValue(), output);
        } catch (IOException | InterruptedException broken) {
            process.destroyForcibly();
            return fail("running cfn-lint failed: " + broken);
        }
    }
}
