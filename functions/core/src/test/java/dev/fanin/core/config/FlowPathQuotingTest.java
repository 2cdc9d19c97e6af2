package dev.fanin.core.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * In YAML's flow style ([...] and {...}), [ and ] are syntax, so a path holding an index must be quoted; the loader's
 * error says so instead of only quoting the YAML parser.
 */
class FlowPathQuotingTest {

    @ParameterizedTest
    @ValueSource(strings = {"    key: [$.items[0].id]\n", "    key: [{path: $.items[0].id, extract: '^(.*)$'}]\n"})
    void anUnquotedIndexInAFlowCollectionIsExplainedWithItsFix(String keyLine) {
        String yaml = "version: 1\npipelines:\n  - name: p\n" + keyLine + "    triggers: {maxLifetime: 1m}\n";

        assertThatThrownBy(() -> ConfigLoader.load(yaml, "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("the file is not valid YAML at line 4")
                .hasMessageContaining("a path with [ ] inside [...] or {...} must be quoted, e.g. '$.items[0].id'");
    }
}
