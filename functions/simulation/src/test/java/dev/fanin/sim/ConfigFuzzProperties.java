package dev.fanin.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes {@link ConfigLoader} with mutated YAML (the bundled sample pipelines and the simulation's): loading either
 * succeeds or throws {@link ConfigException} with at least one problem; no other exception ever escapes.
 */
class ConfigFuzzProperties {

    static String bundled() {
        try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(ConfigLoader.BUNDLED_RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> mutatedYaml() {
        Arbitrary<String> seeds = Arbitraries.of(List.of(bundled(), SimPipelines.yaml(100)));
        Arbitrary<String> lineEdits = seeds.flatMap(y -> {
            List<String> lines = List.of(y.split("\n", -1));
            return Arbitraries.integers().between(0, lines.size() - 1).list().ofMinSize(1).ofMaxSize(4).map(drop -> {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < lines.size(); i++) {
                    if (!drop.contains(i)) {
                        b.append(lines.get(i)).append('\n');
                    }
                }
                return b.toString();
            });
        });
        return Arbitraries.oneOf(Mutations.of(seeds, Mutations.nasty()), lineEdits);
    }

    @Property(tries = 300)
    void mutatedYamlLoadsOrFailsWithAConfigException(@ForAll("mutatedYaml") String yaml) {
        try {
            ConfigLoader.load(yaml, "fuzz");
        } catch (ConfigException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
