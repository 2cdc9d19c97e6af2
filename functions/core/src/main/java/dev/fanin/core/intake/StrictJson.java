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
import java.io.IOException;
import java.io.UncheckedIOException;

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
        try (JsonParser parser = reader.createParser(text)) {
            try {
                JsonNode tree = reader.readTree(parser);
                if (parser.nextToken() != null) {
                    throw new IntakeFailure(RejectionReason.MALFORMED_JSON, where + " is not valid JSON" + at(parser.currentTokenLocation())
                            + ": unexpected data after the JSON value; it starts with " + Details.quote(text));
                }
                return tree;
            } catch (StreamConstraintsException e) {
                throw new IntakeFailure(RejectionReason.JSON_TOO_COMPLEX, where + " exceeds a parser limit" + at(parser.currentLocation())
                        + ": " + message(e) + " (limits: nesting depth " + MAX_NESTING_DEPTH + ", number length " + MAX_NUMBER_LENGTH + ")");
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

    private static String at(JsonLocation location) {
        return location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String message(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage()).replaceAll("\\s+", " ");
        return Details.escape(message.length() > MAX_MESSAGE_CHARS ? message.substring(0, MAX_MESSAGE_CHARS) + "..." : message);
    }
}
