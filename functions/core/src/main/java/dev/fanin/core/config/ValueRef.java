package dev.fanin.core.config;

import java.util.regex.Pattern;

/**
 * A value taken from a field, optionally cut out of it by a regular expression: with {@code extract}, the value is
 * the first capture group of the first match (e.g. the upload prefix {@code ^(.*)/[^/]+$} of an S3 object key, or
 * the file count in {@code _manifest-(\d+)\.json$}); no match means the value is absent.
 */
public record ValueRef(FieldPath path, Pattern extract) {

    public static ValueRef of(FieldPath path) {
        return new ValueRef(path, null);
    }

    @Override
    public String toString() {
        return extract == null ? path.toString() : path + " ~ /" + extract.pattern() + "/";
    }
}
