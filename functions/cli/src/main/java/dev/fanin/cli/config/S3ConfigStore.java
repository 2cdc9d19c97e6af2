package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A configuration in an S3 object: read as the functions read it, published with a PutObject conditional on the object
 * compared (the functions see it at their next read).
 */
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

    /**
     * Writes over exactly the object that was compared ({@code If-Match} its ETag), or only where none is yet
     * ({@code If-None-Match: *}): a publish by someone else between the diff and this write is not overwritten.
     */
    @Override
    public String publish(String document, boolean first) {
        Optional<String> compared = first ? Optional.empty() : reader.lastReadVersion();
        String etag;
        try {
            etag = s3.putObject(r -> {
                r.bucket(location.path()).key(location.key()).contentType("application/yaml");
                if (first) {
                    r.ifNoneMatch("*");
                } else {
                    compared.ifPresent(r::ifMatch);
                }
            }, RequestBody.fromString(document, StandardCharsets.UTF_8)).eTag();
        } catch (S3Exception e) {
            if (e.statusCode() == 412 || e.statusCode() == 409) {
                throw new IllegalStateException(location + " changed since it was compared (published by someone else"
                        + " meanwhile): nothing written; compare again (fanin config diff) and publish then", e);
            }
            throw e;
        }
        return "object " + location + " written (ETag " + etag + ")";
    }
}
