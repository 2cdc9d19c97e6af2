package dev.fanin.cli.config;

import dev.fanin.cli.ops.OperatorClients;
import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a stack's functions read their pipelines ({@code PipelineConfigLocation}), seen from the operator's machine:
 * the document published there, and a way to publish another. An S3 object, an SSM parameter or an AppConfig profile
 * can be published to; a document in the functions' zip or in a layer ({@code classpath:}, {@code file:}) only read
 * (from this machine's copy).
 */
interface ConfigStore {

    /** The document published now, or empty when nothing is published there yet. */
    Optional<String> read();

    /** What {@link #publish} writes, for the operator (it completes "publish would ..."). */
    String plan();

    /**
     * Publishes {@code document} (already validated) for the functions to read.
     *
     * @param first whether {@link #read()} found nothing published there
     * @return what was written, for the operator: the version or the ETag
     * @throws IllegalStateException saying what to do instead, where fanin cannot publish ({@link #refusal()})
     */
    String publish(String document, boolean first);

    /** Why fanin cannot publish here and what to do instead, or null when it can. */
    default String refusal() {
        return null;
    }

    /**
     * The document {@code reader} reads, as the functions read it, or empty when nothing is published there (an empty
     * AppConfig configuration included).
     */
    static Optional<String> published(ConfigDocument reader) {
        try {
            String text = reader.read();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        } catch (ConfigDocument.DocumentMissingException e) {
            return Optional.empty();
        } catch (ConfigDocument.ConfigUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** @param deploymentStrategy the AppConfig deployment strategy a publish to an {@code appconfig:} location uses */
    static ConfigStore at(ConfigLocation location, OperatorClients clients, String deploymentStrategy) {
        return switch (location.scheme()) {
            case S3 -> new S3ConfigStore(clients.s3(), location);
            case SSM -> new SsmConfigStore(clients.ssm(), location);
            case APPCONFIG -> new AppConfigStore(clients.appConfigData(), AppConfigControlPlane.of(clients), location, deploymentStrategy);
            case CLASSPATH, FILE -> local(location);
        };
    }

    /** The jar's or a layer's document, as this machine has it (no AWS call); it changes only with a deploy. */
    static ConfigStore local(ConfigLocation location) {
        return new ConfigStore() {
            @Override
            public Optional<String> read() {
                if (location.scheme() == ConfigLocation.Scheme.FILE) {
                    try {
                        return Optional.of(Files.readString(Path.of(location.path()), StandardCharsets.UTF_8));
                    } catch (NoSuchFileException e) {
                        throw new IllegalStateException(location + " is a file of the functions (a layer) that this machine does"
                                + " not have; compare with a copy: --location file:COPY");
                    } catch (IOException e) {
                        throw new IllegalStateException(location + ": cannot read the file: " + e.getMessage(), e);
                    }
                }
                try (InputStream in = ConfigStore.class.getClassLoader().getResourceAsStream(location.path())) {
                    return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new IllegalStateException(location + ": cannot read the resource: " + e.getMessage(), e);
                }
            }

            @Override
            public String refusal() {
                return "the stack reads its pipelines from " + location + ", inside its functions: a change there is a"
                        + " deploy, not a publish. Deploy with PipelineConfigLocation=s3://BUCKET/KEY (or ssm:/NAME, or"
                        + " appconfig:APP/ENV/PROFILE) to publish configurations without one";
            }

            @Override
            public String plan() {
                return refusal();
            }

            @Override
            public String publish(String document, boolean first) {
                throw new IllegalStateException(refusal());
            }
        };
    }
}
