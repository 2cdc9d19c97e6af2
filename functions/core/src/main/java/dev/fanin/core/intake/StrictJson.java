package dev.fanin.core.intake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.text.SinkText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * A JSON parser that refuses anything ambiguous or oversized: trailing data, duplicate fields, nesting deeper than
 * {@value #MAX_NESTING_DEPTH}, numbers longer than {@value #MAX_NUMBER_LENGTH} digits, strings longer than the
 * largest accepted body, numbers fanin cannot hold exactly ({@link ExactJson#inRange}). Floating-point numbers are
 * read as exact decimals, so {@code 1.50} keeps its text and epoch seconds keep their fraction. Thread-safe.
 */
final class StrictJson {

    static final int MAX_NESTING_DEPTH = 64;
    static final int MAX_NUMBER_LENGTH = 64;
    private static final int MAX_MESSAGE_CHARS = 160;

    private final ObjectReader reader;
    /** The parser's limits as a failure names them. */
    private final String limits;

    StrictJson(int maxStringLength) {
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxStringLength(Math.max(1, maxStringLength))
                .build();
        this.limits = "nesting depth " + MAX_NESTING_DEPTH + ", number length " + MAX_NUMBER_LENGTH + ", string length "
                + constraints.getMaxStringLength() + ", field name length " + constraints.getMaxNameLength();
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(constraints)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        this.reader = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build()
                .reader();
    }

    /**
     * Parses {@code text}; {@code where} names it in the failure ("body", "$envelope.Message").
     *
     * @throws IntakeFailure MALFORMED_JSON or JSON_TOO_COMPLEX, with the line and column of the problem
     */
    JsonNode parse(String text, String where) {
        if (text == null || text.isBlank()) {
            throw new IntakeFailure(RejectionReason.MALFORMED_JSON, where + " is empty: expected a JSON object");
        }
        try (JsonParser parser = reader.createParser(text)) {
            try {
                JsonNode tree = reader.readTree(parser);
                if (parser.nextToken() != null) {
                    throw new IntakeFailure(RejectionReason.MALFORMED_JSON, where + " is not valid JSON" + at(parser.currentTokenLocation())
                            + ": unexpected data after the JSON value; it starts with " + Details.quote(text));
                }
                checkNumbers(tree, where);
                return tree;
            } catch (StreamConstraintsException e) {
                throw new IntakeFailure(RejectionReason.JSON_TOO_COMPLEX, where + " exceeds a parser limit" + at(parser.currentLocation())
                        + ": " + message(e) + " (limits: " + limits + ")");
            } catch (NumberFormatException e) {
                // An exponent beyond what a BigDecimal holds (1e99999999999): as out of range as a number gets.
                throw new IntakeFailure(RejectionReason.NUMBER_OUT_OF_RANGE, where + " has a number whose exponent is out of range"
                        + at(parser.currentLocation()) + "; fanin holds numbers exactly only when they are 0 or their magnitude is between "
                        + ExactJson.MIN_MAGNITUDE + " and " + ExactJson.MAX_MAGNITUDE + "; send it as a string");
            } catch (JsonProcessingException e) {
                JsonLocation location = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
                throw new IntakeFailure(RejectionReason.MALFORMED_JSON, where + " is not valid JSON" + at(location) + ": " + message(e)
                        + "; it starts with " + Details.quote(text));
            }
        } catch (IOException e) {
            // Reading a String does no I/O; closing the parser cannot fail either.
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses a number fanin could not hold exactly in every stage (see {@link ExactJson#inRange}), before anything
     * reads it: a 22-byte {@code 1e2147483000} written out in full would take gigabytes.
     */
    private static void checkNumbers(JsonNode tree, String where) {
        OutOfRange found = outOfRange(tree);
        if (found != null) {
            throw new IntakeFailure(RejectionReason.NUMBER_OUT_OF_RANGE, where + " has the number " + found.number + " at $"
                    + found.path + ": fanin holds numbers exactly only when they are 0 or their magnitude is between "
                    + ExactJson.MIN_MAGNITUDE + " and " + ExactJson.MAX_MAGNITUDE + "; send it as a string");
        }
    }

    /**
     * The first number out of range under {@code node} and its path relative to it (built only when one is found).
     * Also refuses a field name with an unpaired surrogate (the parser refuses one written as an escape, not a raw one):
     * written back into state, it could not be read again.
     */
    private static OutOfRange outOfRange(JsonNode node) {
        if (node.isBigDecimal()) {
            return ExactJson.inRange(node.decimalValue()) ? null : new OutOfRange("", node.decimalValue());
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                OutOfRange inner = outOfRange(node.get(i));
                if (inner != null) {
                    return new OutOfRange("[" + i + "]" + inner.path, inner.number);
                }
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (SinkText.firstUnpairedSurrogate(field.getKey()) >= 0) {
                    throw new IntakeFailure(RejectionReason.MALFORMED_JSON, "a field name has an unpaired UTF-16 surrogate: "
                            + Details.quote(field.getKey()));
                }
                OutOfRange inner = outOfRange(field.getValue());
                if (inner != null) {
                    return new OutOfRange(step(field.getKey()) + inner.path, inner.number);
                }
            }
        }
        return null;
    }

    private record OutOfRange(String path, java.math.BigDecimal number) { }

    private static String step(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_-]*") ? "." + name : "[" + Details.quote(name) + "]";
    }

    private static String at(JsonLocation location) {
        return location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String message(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage()).replaceAll("\\s+", " ");
        return Details.escape(message.length() > MAX_MESSAGE_CHARS ? message.substring(0, MAX_MESSAGE_CHARS) + "..." : message);
    }
}
