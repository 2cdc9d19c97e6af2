package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.util.Optional;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterTier;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * A configuration in an SSM parameter: read decrypted, published over it keeping its type (a SecureString stays one; a
 * new parameter is a String). The tier is intelligent-tiering, so a document over the 4 KB of a standard parameter
 * is stored as an advanced one instead of being refused.
 */
final class SsmConfigStore implements ConfigStore {

    private final SsmClient ssm;
    private final ConfigLocation location;
    private final ConfigDocument reader;

    SsmConfigStore(SsmClient ssm, ConfigLocation location) {
        this.ssm = ssm;
        this.location = location;
        this.reader = ConfigDocument.ssm(ssm, location);
    }

    @Override
    public Optional<String> read() {
        return ConfigStore.published(reader);
    }

    @Override
    public String plan() {
        return "write the parameter " + location.path() + " (PutParameter)";
    }

    /** A parameter's value is never empty, so {@code first} (nothing read) means there is no parameter yet. */
    @Override
    public String publish(String document, boolean first) {
        long version = ssm.putParameter(r -> {
            r.name(location.path()).value(document).overwrite(!first).tier(ParameterTier.INTELLIGENT_TIERING);
            if (first) {
                r.type(ParameterType.STRING);
            }
        }).version();
        return "parameter " + location.path() + " version " + version + " written";
    }
}
