package dev.fanin.aws;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code ${NAME}} references in configured target names (bus names, queue URLs) against the environment,
 * once, at cold start, so that a missing variable fails the deployment's first invocation loudly rather than every
 * emission quietly.
 */
public final class EnvReferences {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private EnvReferences() { }

    /**
     * @param value    the configured value, possibly containing {@code ${NAME}} references
     * @param env      environment lookup (null or empty means unset)
     * @param whatFor  e.g. {@code pipeline 'alerts' emit.busName}, used in the error message
     * @throws IllegalStateException naming the variable and {@code whatFor} when a reference is unset
     */
    public static String resolve(String value, Function<String, String> env, String whatFor) {
        if (value == null) {
            throw new IllegalStateException(whatFor + " is not set");
        }
        Matcher matcher = REFERENCE.matcher(value);
        StringBuilder resolved = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String replacement = env.apply(name);
            if (replacement == null || replacement.isEmpty()) {
                throw new IllegalStateException(whatFor + " refers to environment variable " + name
                        + " (\"" + value + "\"), which is not set: set " + name
                        + " on the function or write the value into the configuration");
            }
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(resolved);
        if (resolved.length() == 0) {
            throw new IllegalStateException(whatFor + " is empty");
        }
        return resolved.toString();
    }
}
