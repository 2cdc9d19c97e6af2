package dev.fanin.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The pipeline configuration document at a {@link ConfigLocation}, read afresh on every {@link #read()}: the text as
 * stored, not yet validated ({@link LiveConfig} does that). The functions and {@code fanin config} read a published
 * document through the same readers.
 */
public interface ConfigDocument {

    /**
     * @throws ConfigUnavailableException when the document cannot be read now (missing, denied, the service down);
     *                                    the message says which and where ({@link DocumentMissingException} when
     *                                    nothing is published there)
     */
    String read();

    /**
     * The version of the document the last {@link #read()} returned, as its store names it (an S3 object's ETag), for
     * a write conditional on it; empty where the store has none or nothing was read.
     */
    default Optional<String> lastReadVersion() {
        return Optional.empty();
    }

    /** The object at an {@code s3://} location. */
    static ConfigDocument s3(S3Client s3, ConfigLocation location) {
        return new S3ConfigDocument(s3, location);
    }

    /** The parameter at an {@code ssm:} location, decrypted. */
    static ConfigDocument ssm(SsmClient ssm, ConfigLocation location) {
        return ParameterConfigDocument.ssm(ssm, location);
    }

    /** The configuration deployed to an {@code appconfig:} profile, through the AppConfig data API. */
    static ConfigDocument appConfig(AppConfigDataClient appConfig, ConfigLocation location) {
        return ParameterConfigDocument.appConfig(appConfig, location);
    }

    /** A document in the function's jar or in a file (a layer): fixed for the life of the function. */
    static ConfigDocument local(ConfigLocation location) {
        return () -> {
            if (location.scheme() == ConfigLocation.Scheme.FILE) {
                try {
                    return Files.readString(Path.of(location.path()), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new ConfigUnavailableException(location + ": cannot read the file: " + e);
                }
            }
            try (InputStream in = ConfigDocument.class.getClassLoader().getResourceAsStream(location.path())) {
                if (in == null) {
                    throw new ConfigUnavailableException(location + ": no such resource in the function's jar; use "
                            + EnvironmentVariables.DEFAULT_CONFIG + " or " + ConfigLocation.FORMS);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigUnavailableException(location + ": cannot read the resource: " + e);
            }
        };
    }

    /** The document cannot be read now; the last good configuration stays in force. */
    class ConfigUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConfigUnavailableException(String message) {
            super(message);
        }

        ConfigUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Nothing is published at the location (no such object, parameter or profile). */
    final class DocumentMissingException extends ConfigUnavailableException {
        private static final long serialVersionUID = 1L;

        DocumentMissingException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
