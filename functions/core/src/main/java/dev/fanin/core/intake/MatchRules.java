package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.Condition;
import dev.fanin.core.config.MatchRule;

/**
 * Evaluates match rules. A condition reads its path from the payload, or from the envelope for {@code $envelope}
 * paths. Its tests compare the text of a scalar (see {@link Scalars#text}); objects, arrays, null and absent values
 * never equal, belong to or match anything. {@code exists: true} holds for any present, non-null value. When a
 * condition sets several tests, all must hold; a rule holds when all its conditions do (an empty rule always holds).
 */
final class MatchRules {

    private MatchRules() {
    }

    static boolean holds(MatchRule rule, JsonNode payload, JsonNode envelope) {
        for (Condition condition : rule.all()) {
            if (!holds(condition, payload, envelope)) {
                return false;
            }
        }
        return true;
    }

    static boolean holds(Condition condition, JsonNode payload, JsonNode envelope) {
        JsonNode value = condition.path().read(payload, envelope);
        boolean present = !Scalars.isAbsent(value);
        if (condition.exists() != null && condition.exists() != present) {
            return false;
        }
        boolean needsText = condition.equalTo() != null || condition.oneOf() != null || condition.matches() != null;
        if (!needsText) {
            return condition.exists() != null || present;
        }
        if (!Scalars.isScalar(value)) {
            return false;
        }
        String text = Scalars.text(value);
        return (condition.equalTo() == null || condition.equalTo().equals(text))
                && (condition.oneOf() == null || condition.oneOf().contains(text))
                && (condition.matches() == null || condition.matches().matcher(text).matches());
    }
}
