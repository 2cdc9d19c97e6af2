package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigLocation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** A configuration in an S3 object: read with GetObject, published with PutObject (the functions see it at their next read). */
final class S3ConfigStore implements ConfigStore {

    private final S3Client s3;
    private final ConfigLocation location;

    S3ConfigStore(S3Client s3, ConfigLocation location) {
        this.s3 = s3;
        this.location = location;
    }

    @Override
    public Optional<String> read() {
        try {
            return Optional.of(s3.getObjectAsBytes(r -> r.bucket(location.path()).key(location.key())).asString(StandardCharsets.UTF_8));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public String publish(String document) {
        String etag = s3.putObject(r -> r.bucket(location.path()).key(location.key()).contentType("application/yaml"),
                RequestBody.fromString(document, StandardCharsets.UTF_8)).eTag();
        return "object " + location + " written (ETag " + etag + ")";
    }
}
