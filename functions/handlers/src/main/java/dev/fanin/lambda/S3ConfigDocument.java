package dev.fanin.lambda;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A configuration document in an S3 object ({@code s3://bucket/key}). Each read is one {@code GetObject}, conditional
 * on the ETag of the last one read ({@code If-None-Match}), so an unchanged object costs a 304 and no body.
 */
final class S3ConfigDocument implements ConfigDocument {

    private final S3Client s3;
    private final ConfigLocation location;
    private String etag;
    private String text;

    S3ConfigDocument(S3Client s3, ConfigLocation location) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.location = Objects.requireNonNull(location, "location");
    }

    @Override
    public synchronized Optional<String> lastReadVersion() {
        return Optional.ofNullable(text == null ? null : etag);
    }

    @Override
    public synchronized String read() {
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(location.path()).key(location.key());
        if (etag != null) {
            request.ifNoneMatch(etag);
        }
        try {
            ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(request.build());
            etag = object.response().eTag();
            text = object.asString(StandardCharsets.UTF_8);
            return text;
        } catch (S3Exception e) {
            if (e.statusCode() == 304 && text != null) {
                return text;
            }
            String status = " (" + e.statusCode() + " " + e.awsErrorDetails().errorCode() + ")";
            // A missing bucket is a wrong location, not a document not yet published there.
            if (e.statusCode() == 404 && !"NoSuchBucket".equals(e.awsErrorDetails().errorCode())) {
                throw new DocumentMissingException(location + ": no such object" + status, e);
            }
            if (e.statusCode() == 404) {
                throw new ConfigUnavailableException(location + ": no such bucket" + status + ": the location names a bucket"
                        + " that does not exist", e);
            }
            // Without s3:ListBucket on the bucket, S3 answers a missing key with 403, not 404.
            String hint = e.statusCode() == 403 ? ": the object may not exist (S3 answers 403 for a missing key to a caller"
                    + " without s3:ListBucket on the bucket) or this role may not read it" : "";
            throw new ConfigUnavailableException(location + ": GetObject failed" + status + hint, e);
        } catch (SdkException e) {
            throw new ConfigUnavailableException(location + ": GetObject failed: " + e.getMessage(), e);
        }
    }
}
