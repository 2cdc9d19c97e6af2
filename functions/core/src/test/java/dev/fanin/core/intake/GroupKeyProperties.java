package dev.fanin.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class GroupKeyProperties {

    /**
     * Different part lists never give the same key. The alphabet is mostly separators and backslashes so that
     * a naive join would collide often: the property would fail quickly without escaping.
     */
    @Property(tries = 2000)
    void differentPartListsNeverJoinToTheSameKey(@ForAll("parts") List<String> a, @ForAll("parts") List<String> b) {
        if (!a.equals(b)) {
            assertThat(GroupKeys.join(a)).isNotEqualTo(GroupKeys.join(b));
        }
    }

    @Property(tries = 500)
    void splittingOnUnescapedSeparatorsRecoversTheParts(@ForAll("parts") List<String> parts) {
        assertThat(unjoin(GroupKeys.join(parts))).isEqualTo(parts);
    }

    @Provide
    Arbitrary<List<String>> parts() {
        Arbitrary<String> part = Arbitraries.strings().withChars('a', 'b', '|', '\\').ofMaxLength(4);
        return part.list().ofMinSize(1).ofMaxSize(3);
    }

    /** The inverse of {@link GroupKeys#join}, written independently of it. */
    private static List<String> unjoin(String key) {
        List<String> parts = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '\\') {
                current.append(key.charAt(++i));
            } else if (c == '|') {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }
}
