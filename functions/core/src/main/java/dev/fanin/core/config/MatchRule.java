package dev.fanin.core.config;

import java.util.List;

/**
 * Which messages belong to a pipeline: every condition must hold on the unwrapped payload (or, for conditions
 * whose path starts with {@code $envelope}, on the envelope). An empty rule matches everything.
 */
public record MatchRule(List<Condition> all) {

    public MatchRule {
        all = List.copyOf(all);
    }

    public static MatchRule always() {
        return new MatchRule(List.of());
    }
}
