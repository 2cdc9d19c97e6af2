package dev.fanin.lambda;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the functions read the pipeline configuration ({@code FANIN_CONFIG}, template parameter
 * {@code PipelineConfigLocation}): in the jar, in a file (a layer under {@code /opt}), in an S3 object, in an SSM
 * parameter or in an AppConfig configuration profile.
 *
 * @param scheme what holds the document
 * @param path   the resource or file path; the S3 bucket; the SSM parameter name; the AppConfig application
 * @param key    the S3 object key; the AppConfig environment (null otherwise)
 * @param profile the AppConfig configuration profile (null otherwise)
 */
public record ConfigLocation(Scheme scheme, String path, String key, String profile) {

    /** The forms, as {@code FANIN_CONFIG} spells them. */
    public static final String FORMS = "classpath:<resource>, file:<path>, s3://<bucket>/<key>, ssm:/<parameter name>"
            + " or appconfig:<application>/<environment>/<profile>";

    private static final Pattern S3 = Pattern.compile("s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])/(.+)");
    private static final Pattern SSM = Pattern.compile("ssm:(/[A-Za-z0-9_.\\-/]+)");
    private static final Pattern APPCONFIG = Pattern.compile("appconfig:([^/]+)/([^/]+)/([^/]+)");

    public enum Scheme { CLASSPATH, FILE, S3, SSM, APPCONFIG }

    public ConfigLocation {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(path, "path");
    }

    /** @throws IllegalArgumentException naming the forms accepted */
    public static ConfigLocation parse(String location) {
        String l = location == null ? "" : location.trim();
        Matcher m;
        if (l.startsWith("classpath:") && l.length() > "classpath:".length()) {
            return new ConfigLocation(Scheme.CLASSPATH, l.substring("classpath:".length()).replaceFirst("^/", ""), null, null);
        }
        if (l.startsWith("file:") && l.length() > "file:".length()) {
            return new ConfigLocation(Scheme.FILE, l.substring("file:".length()), null, null);
        }
        if ((m = S3.matcher(l)).matches()) {
            return new ConfigLocation(Scheme.S3, m.group(1), m.group(2), null);
        }
        if ((m = SSM.matcher(l)).matches()) {
            return new ConfigLocation(Scheme.SSM, m.group(1), null, null);
        }
        if ((m = APPCONFIG.matcher(l)).matches()) {
            return new ConfigLocation(Scheme.APPCONFIG, m.group(1), m.group(2), m.group(3));
        }
        throw new IllegalArgumentException(EnvironmentVariables.CONFIG + " must be " + FORMS + ", was \"" + location + "\"");
    }

    /** Whether the document lives outside the function (and may change while it runs). */
    public boolean isExternal() {
        return scheme == Scheme.S3 || scheme == Scheme.SSM || scheme == Scheme.APPCONFIG;
    }

    @Override
    public String toString() {
        return switch (scheme) {
            case CLASSPATH -> "classpath:" + path;
            case FILE -> "file:" + path;
            case S3 -> "s3://" + path + "/" + key;
            case SSM -> "ssm:" + path;
            case APPCONFIG -> "appconfig:" + path + "/" + key + "/" + profile;
        };
    }
}
