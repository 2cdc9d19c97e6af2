package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random mutations of the bundled configuration: the loader either loads them or throws a {@link ConfigException}
 * whose every problem is a readable line; never any other exception.
 */
class ConfigLoaderFuzzProperties {

    private static final String BUNDLED = bundled();
    private static final String YAML_CHARACTERS = ":-[]{},'\"#&*!|>%@`\t\n ?0123456789$.~";

    /** One edit of the text: delete a span, insert characters, or duplicate, drop or swap lines. */
    private record Mutation(int kind, int at, int length, String inserted) {

        String apply(String text) {
            int position = Math.floorMod(at, text.length() + 1);
            List<String> lines = new ArrayList<>(text.lines().toList());
            int line = Math.floorMod(at, lines.size());
            int other = Math.floorMod(at + length, lines.size());
            switch (kind) {
                case 0:
                    return text.substring(0, position) + text.substring(Math.min(text.length(), position + length));
                case 1:
                    return text.substring(0, position) + inserted + text.substring(position);
                case 2:
                    lines.add(line, lines.get(line));
                    return String.join("\n", lines);
                case 3:
                    lines.remove(line);
                    return String.join("\n", lines);
                default:
                    String swapped = lines.get(line);
                    lines.set(line, lines.get(other));
                    lines.set(other, swapped);
                    return String.join("\n", lines);
            }
        }
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<String> inserted = Arbitraries.oneOf(
                Arbitraries.strings().withChars(YAML_CHARACTERS).ofMinLength(1).ofMaxLength(6),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8),
                Arbitraries.of("0s", "-1s", "never", "[]", "{}", "null", "~", "true", "99999999999", "'('", "$", "$..", "*a", "&a x"));
        Arbitrary<Mutation> mutation = Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, BUNDLED.length()),
                Arbitraries.integers().between(1, 40),
                inserted).as(Mutation::new);
        return mutation.list().ofMinSize(1).ofMaxSize(4);
    }

    @Property(tries = 400)
    void mutatedConfigurationsLoadOrFailWithConfigProblemsOnly(@ForAll("mutations") List<Mutation> mutations) {
        String text = BUNDLED;
        for (Mutation mutation : mutations) {
            text = mutation.apply(text);
        }
        try {
            FaninConfig config = ConfigLoader.load(text, "fuzz.yaml");
            assertThat(config.pipelines()).isNotEmpty();
        } catch (ConfigException rejected) {
            assertThat(rejected.problems()).isNotEmpty()
                    .allSatisfy(problem -> assertThat(problem.message()).isNotBlank());
        }
    }

    private static String bundled() {
        try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(ConfigLoader.BUNDLED_RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
