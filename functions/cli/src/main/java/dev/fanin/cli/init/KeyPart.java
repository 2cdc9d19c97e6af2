package dev.fanin.cli.init;

import dev.fanin.core.config.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One part of the group key as {@code fanin init} reads it: {@code PATH}, or {@code PATH~REGEX} to keep the first
 * capture group of REGEX in the value at PATH (e.g. the upload prefix of an S3 object key).
 */
public record KeyPart(String path, String extract) {

    /**
     * Parses a comma-separated list ({@code $.account,$.region}); a comma starts a new part only when a path
     * ({@code $}) follows it, so regexes may hold commas.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public static List<KeyPart> parseList(String text) {
        List<KeyPart> parts = new ArrayList<>();
        for (String item : text.strip().split(",\\s*(?=\\$)")) {
            if (!item.isBlank()) {
                parts.add(parse(item.strip()));
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("name at least one field, e.g. $.account");
        }
        return parts;
    }

    static KeyPart parse(String item) {
        int tilde = item.indexOf('~');
        String path = tilde < 0 ? item : item.substring(0, tilde).strip();
        String extract = tilde < 0 ? null : item.substring(tilde + 1);
        try {
            FieldPath.parse(path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("key path " + e.getMessage());
        }
        if (extract != null) {
            try {
                if (Pattern.compile(extract).matcher("").groupCount() < 1) {
                    throw new IllegalArgumentException("key regex \"" + extract + "\" has no capture group; put the part to keep in ( )");
                }
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("key regex \"" + extract + "\" is not a valid regular expression: " + e.getDescription());
            }
        }
        return new KeyPart(path, extract);
    }

    @Override
    public String toString() {
        return extract == null ? path : path + "~" + extract;
    }
}
