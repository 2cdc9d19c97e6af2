package dev.fanin.core.intake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A JSON parser that refuses anything ambiguous or oversized: trailing data, duplicate fields, nesting deeper than
 * {@value #MAX_NESTING_DEPTH}, numbers longer than {@value #MAX_NUMBER_LENGTH} digits, strings longer than the
 * largest accepted body. Floating-point numbers are read as exact decimals, so {@code 1.50} keeps its text and epoch
 * seconds keep their fraction. Thread-safe.
 */
final class StrictJson {

    static final int MAX_NESTING_DEPTH = 64;
    static final int MAX_NUMBER_LENGTH = 64;
    private static final int MAX_MESSAGE_CHARS = 160;

    private final ObjectReader reader;

    StrictJson(int maxStringLength) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        .maxStringLength(Math.max(1, maxStringLength))
                        .build())
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
        try {
            return reader.readTree(text);
        } catch (StreamConstraintsException e) {
            throw new IntakeFailure(RejectionReason.JSON_TOO_COMPLEX, where + " exceeds a parser limit" + at(e) + ": "
                    + message(e) + " (limits: nesting depth " + MAX_NESTING_DEPTH + ", number length " + MAX_NUMBER_LENGTH + ")");
        } catch (JsonProcessingException e) {
            throw new IntakeFailure(RejectionReason.MALFORMED_JSON, where + " is not valid JSON" + at(e) + ": " + message(e)
                    + "; it starts with " + Details.quote(text));
        }
    }

    private static String at(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        return location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String message(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage()).replaceAll("\\s+", " ");
        return message.length() > MAX_MESSAGE_CHARS ? message.substring(0, MAX_MESSAGE_CHARS) + "..." : message;
    }
}
