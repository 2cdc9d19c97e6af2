package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** A configuration in an S3 object: read as the functions read it, published with PutObject (the functions see it at their next read). */
final class S3ConfigStore implements ConfigStore {

    private final S3Client s3;
    private final ConfigLocation location;
    private final ConfigDocument reader;

    S3ConfigStore(S3Client s3, ConfigLocation location) {
        this.s3 = s3;
        this.location = location;
        this.reader = ConfigDocument.s3(s3, location);
    }

    @Override
    public Optional<String> read() {
        return ConfigStore.published(reader);
    }

    @Override
    public String plan() {
        return "write the object " + location + " (PutObject)";
    }

    @Override
    public String publish(String document, boolean first) {
        String etag = s3.putObject(r -> r.bucket(location.path()).key(location.key()).contentType("application/yaml"),
                RequestBody.fromString(document, StandardCharsets.UTF_8)).eTag();
        return "object " + location + " written (ETag " + etag + ")";
    }
}
