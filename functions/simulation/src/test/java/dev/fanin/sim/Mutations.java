package dev.fanin.sim;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Byte-level (character-level) mutations of a seed text, as a mutation fuzzer applies them. */
final class Mutations {

    enum Op { DELETE, INSERT, REPLACE, DUPLICATE, TRUNCATE, SWAP }

    private Mutations() {
    }

    /** A seed from {@code seeds} with one to five random mutations applied. */
    static Arbitrary<String> of(Arbitrary<String> seeds, Arbitrary<String> insertions) {
        Arbitrary<Mutation> mutation = Combinators.combine(Arbitraries.of(Op.class), Arbitraries.doubles().between(0, 1),
                Arbitraries.doubles().between(0, 1), insertions).as(Mutation::new);
        return Combinators.combine(seeds, mutation.list().ofMinSize(1).ofMaxSize(5)).as((seed, ms) -> {
            String s = seed;
            for (Mutation m : ms) {
                s = m.apply(s);
            }
            return s;
        });
    }

    /** Characters that matter to JSON and YAML parsers, and some that should never appear. */
    static Arbitrary<String> nasty() {
        return Arbitraries.oneOf(
                Arbitraries.of("{", "}", "[", "]", "\"", "\\", ":", ",", "'", "#", "-", " ", "\n", "\t", "&a", "*a", "!!", "|", ">", "%",
                        "\u0000", "\u0007", "\u007f", "\ud800", "\udfff", "\ufeff", "\ufffd", "\ud83d\ude80", "é", "null", "true", "1e400",
                        "-0", "99999999999999999999", "${X}", "$.", "$envelope.", "0s", "-1s", "1ms", "10000000d"),
                Arbitraries.strings().ofMaxLength(8));
    }

    record Mutation(Op op, double at, double length, String text) {
        String apply(String s) {
            int i = (int) (at * s.length());
            int n = (int) (length * Math.min(32, s.length() - i));
            return switch (op) {
                case DELETE -> s.substring(0, i) + s.substring(i + n);
                case INSERT -> s.substring(0, i) + text + s.substring(i);
                case REPLACE -> s.substring(0, i) + text + s.substring(Math.min(s.length(), i + Math.max(1, n)));
                case DUPLICATE -> s.substring(0, i + n) + s.substring(i, i + n) + s.substring(i + n);
                case TRUNCATE -> s.substring(0, i);
                case SWAP -> {
                    int j = (int) (length * s.length());
                    if (i == j || s.isEmpty() || i >= s.length() || j >= s.length()) {
                        yield s;
                    }
                    char[] c = s.toCharArray();
                    char t = c[i];
                    c[i] = c[j];
                    c[j] = t;
                    yield new String(c);
                }
            };
        }
    }
}
