package dev.fanin.core.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.FieldPath;
import dev.fanin.core.event.Event;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * Sum, minimum or maximum of a numeric field, exact (BigDecimal). Events whose field is absent, null or not a JSON
 * number are counted in {@code skipped}. Re-adding an event leaves a min or max value unchanged;
 * sum and {@code skipped} rely on the window's digest dedupe.
 *
 * <p>Equal values of different scale ({@code 1.0} and {@code 1.00}): min and max keep the smaller scale, so the
 * result does not depend on arrival order.
 */
record NumericAccumulator(Op op, FieldPath path, BigDecimal value, long skipped) implements Accumulator {

    enum Op { SUM, MIN, MAX }

    static NumericAccumulator empty(Op op, FieldPath path) {
        return new NumericAccumulator(op, path, null, 0);
    }

    static NumericAccumulator fromState(Op op, FieldPath path, JsonNode state) {
        JsonNode v = state.path("v");
        return new NumericAccumulator(op, path, v.isTextual() ? new BigDecimal(v.textValue()) : null, state.path("sk").longValue());
    }

    @Override
    public Accumulator add(Event event) {
        JsonNode node = EventFields.read(path, event);
        BigDecimal number = numberOrNull(node);
        if (number == null) {
            return new NumericAccumulator(op, path, value, skipped + 1);
        }
        return new NumericAccumulator(op, path, combine(value, number), skipped);
    }

    @Override
    public Accumulator merge(Accumulator other) {
        if (!(other instanceof NumericAccumulator that) || that.op != op || !Objects.equals(that.path, path)) {
            throw new IllegalArgumentException("cannot merge " + op + " of " + path + " with " + other);
        }
        return new NumericAccumulator(op, path, combine(value, that.value), skipped + that.skipped);
    }

    private BigDecimal combine(BigDecimal a, BigDecimal b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return switch (op) {
            case SUM -> a.add(b);
            case MIN -> pick(a, b, a.compareTo(b) < 0);
            case MAX -> pick(a, b, a.compareTo(b) > 0);
        };
    }

    private static BigDecimal pick(BigDecimal a, BigDecimal b, boolean aWins) {
        if (a.compareTo(b) == 0) {
            return a.scale() <= b.scale() ? a : b;
        }
        return aWins ? a : b;
    }

    private static BigDecimal numberOrNull(JsonNode node) {
        if (node == null || !node.isNumber()) {
            return null;
        }
        if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue()) && !node.isBigDecimal()) {
            return null;
        }
        return node.decimalValue();
    }

    @Override
    public JsonNode toOutput() {
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        if (value == null) {
            output.putNull("value");
        } else {
            output.put("value", value);
        }
        output.put("skipped", skipped);
        return output;
    }

    @Override
    public JsonNode toState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        if (value == null) {
            state.putNull("v");
        } else {
            state.put("v", value.toString());
        }
        state.put("sk", skipped);
        return state;
    }
}
