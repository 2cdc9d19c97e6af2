package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md and the loader agree: its examples load, and it lists every validation message exactly. */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("..", "..", "docs", "CONFIGURATION.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    private static String doc() throws IOException {
        assertThat(DOC).as("run from functions/core, as the reactor does").exists();
        return Files.readString(DOC, StandardCharsets.UTF_8);
    }

    private static List<String> wholeFileExamples(String doc) {
        List<String> examples = new ArrayList<>();
        Matcher block = YAML_BLOCK.matcher(doc);
        while (block.find()) {
            if (block.group(1).startsWith("version: 1")) {
                examples.add(block.group(1));
            }
        }
        return examples;
    }

    @Test
    void everyValidationMessageIsListedVerbatim() throws IOException {
        String doc = doc();

        assertThat(ValidationCases.all())
                .allSatisfy(c -> assertThat(doc).as(c.mistake()).contains("| " + c.mistake() + " | `" + c.expected() + "` |"));
    }

    @Test
    void everyWholeFileExampleLoads() throws IOException {
        List<String> examples = wholeFileExamples(doc());

        assertThat(examples).hasSizeGreaterThanOrEqualTo(2);
        assertThat(examples).allSatisfy(yaml -> assertThat(ConfigLoader.load(yaml, "CONFIGURATION.md").pipelines()).isNotEmpty());
    }

    @Test
    void theCompleteExampleSetsEveryPipelineField() throws IOException {
        String doc = doc();
        String complete = doc.substring(doc.indexOf("<!-- complete-example -->"));
        Matcher block = YAML_BLOCK.matcher(complete);
        assertThat(block.find()).isTrue();

        for (String field : PipelineParser.FIELDS) {
            assertThat(block.group(1)).as(field).containsPattern("(?m)^  (- |  )" + field + ":");
        }
        PipelineConfig pipeline = ConfigLoader.load(block.group(1), "CONFIGURATION.md").pipelines().get(0);
        assertThat(pipeline.aggregations()).hasSize(8);
    }

    @Test
    void everyPipelineFieldHasItsOwnSection() throws IOException {
        String doc = doc();

        assertThat(PipelineParser.FIELDS).allSatisfy(field -> assertThat(doc).contains("### `" + field + "`"));
    }
}
