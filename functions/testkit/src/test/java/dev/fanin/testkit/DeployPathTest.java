package dev.fanin.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Deploy section, followed as written on a clean checkout up to the point where AWS credentials are
 * needed: {@code infra/deploy/check.sh} builds the artifact with the README's command, packages and transforms the
 * template offline and lints the result. The checkout is a copy of the repository's tracked files (what a clone has:
 * no {@code target/}), so nothing built by this suite can stand in for what the build must produce.
 */
class DeployPathTest {

    private static final Path ROOT = TemplateResources.locateTemplate().toAbsolutePath().getParent();

    @Test
    void theReadmeDeployStepsWorkOnACleanCheckout(@TempDir Path checkout) throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme).as("README's Deploy section builds with the command check.sh runs")
                .contains("mvn -B -DskipTests -pl functions/handlers -am package")
                .contains("infra/deploy/check.sh");
        copyTrackedFiles(checkout);

        String output = ToolRun.of(List.of("bash", "infra/deploy/check.sh"), checkout, Duration.ofMinutes(15)).succeeded();

        assertThat(output).contains("translated and linted target/deploy/template.json");
        assertThat(checkout.resolve("functions/handlers/target/fanin-functions-lambda.zip")).isRegularFile();
        String translated = Files.readString(checkout.resolve("target/deploy/template.json"));
        assertThat(translated).contains("\"AWS::Lambda::Function\"").doesNotContain("AWS::Serverless::Function");
    }

    private static void copyTrackedFiles(Path into) throws IOException {
        String files = ToolRun.of(List.of("git", "ls-files", "-z"), ROOT, Duration.ofSeconds(60)).succeeded();
        for (String file : files.split("\0")) {
            Path source = ROOT.resolve(file);
            if (file.isEmpty() || !Files.isRegularFile(source)) {
                continue; // deleted in the work tree, not yet committed
            }
            Path target = into.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
        assertThat(into.resolve("pom.xml")).isRegularFile();
        assertThat(Files.readString(into.resolve("template.yaml"), StandardCharsets.UTF_8)).contains("AWS::Serverless::Function");
    }
}
