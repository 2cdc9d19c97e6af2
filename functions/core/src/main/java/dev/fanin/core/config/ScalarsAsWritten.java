package dev.fanin.core.config;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.util.regex.Pattern;

/**
 * YAML read with its plain scalars as written. YAML 1.1, which the parser follows, reads {@code 010} as 8,
 * {@code 0x1F} as 31, {@code 1_000} as 1000 and {@code 1:30} as 90, and {@code NO}, {@code off} or {@code yes} as
 * booleans: a country code or a state in a match condition would silently become another value and never match.
 * Here a whole number is a number only when written in decimal, and a boolean only as {@code true} or
 * {@code false} (in any case); any other such plain scalar is the text written (so a field that needs a number or a
 * boolean says so, quoting it). Numbers with a point or an exponent are still read as YAML 1.1 reads them
 * ({@code 1_000.5} is 1000.5): quote one to keep its text.
 */
final class ScalarsAsWritten extends YAMLFactory {

    private static final long serialVersionUID = 1L;
    /** A whole number as JSON and events write it. */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(0|[1-9][0-9]*)");

    ScalarsAsWritten(YAMLFactoryBuilder builder) {
        super(builder.enable(YAMLParser.Feature.PARSE_BOOLEAN_LIKE_WORDS_AS_STRINGS));
    }

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) throws IOException {
        return new YAMLParser(context, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec, reader) {
            @Override
            protected JsonToken _decodeNumberScalar(String value, int len) throws IOException {
                // The raw text is already the token's text (_textValue): only the token's type changes.
                return DECIMAL.matcher(value).matches() ? super._decodeNumberScalar(value, len) : JsonToken.VALUE_STRING;
            }
        };
    }
}
