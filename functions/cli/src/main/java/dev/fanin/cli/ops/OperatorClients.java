package dev.fanin.cli.ops;

import dev.fanin.cli.UsageException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The operator's AWS clients, configured the SDK's usual way: region from {@code AWS_REGION} (or the profile),
 * credentials from the environment or the default chain, every client pointed at {@code AWS_ENDPOINT_URL} when set.
 */
public final class OperatorClients implements AutoCloseable {

    private final Region region;
    private final URI endpoint;
    private final AwsCredentialsProvider credentials;
    private final DynamoDbClient dynamoDb;
    private final SqsClient sqs;
    private final CloudWatchClient cloudWatch;
    /** Clients of the configuration's store, built by the commands that publish one. */
    private final List<AutoCloseable> configClients = new ArrayList<>();

    public OperatorClients(Map<String, String> env) throws UsageException {
        this.region = region(env);
        String url = env.get("AWS_ENDPOINT_URL");
        this.endpoint = url == null || url.isBlank() ? null : URI.create(url);
        String key = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        String token = env.get("AWS_SESSION_TOKEN");
        this.credentials = key != null && secret != null
                ? StaticCredentialsProvider.create(token == null ? AwsBasicCredentials.create(key, secret)
                        : AwsSessionCredentials.create(key, secret, token))
                : DefaultCredentialsProvider.builder().build();
        // Building a client opens no connection: the three a command may use are built once, here.
        this.dynamoDb = configure(DynamoDbClient.builder()).build();
        this.sqs = configure(SqsClient.builder()).build();
        this.cloudWatch = configure(CloudWatchClient.builder()).build();
    }

    public String region() {
        return region.id();
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    public SqsClient sqs() {
        return sqs;
    }

    public CloudWatchClient cloudWatch() {
        return cloudWatch;
    }

    /** A client of an S3 bucket holding a configuration (local endpoints serve buckets by path, not by host name). */
    public synchronized S3Client s3() {
        return built(configure(S3Client.builder()).forcePathStyle(endpoint != null).build());
    }

    public synchronized SsmClient ssm() {
        return built(configure(SsmClient.builder()).build());
    }

    /** AppConfig's data plane: what the functions read a deployed configuration through. */
    public synchronized AppConfigDataClient appConfigData() {
        return built(configure(AppConfigDataClient.builder()).build());
    }

    /** The credentials every client here signs with. */
    public AwsCredentialsProvider credentials() {
        return credentials;
    }

    /** {@code AWS_ENDPOINT_URL}, where every client here sends its calls when it is set. */
    public Optional<URI> endpointOverride() {
        return Optional.ofNullable(endpoint);
    }

    /** Closes {@code client} with these (a client built outside this class: AppConfig's control plane). */
    public synchronized <C extends AutoCloseable> C closedWithThese(C client) {
        return built(client);
    }

    private <C extends AutoCloseable> C built(C client) {
        configClients.add(client);
        return client;
    }

    /** The stack's outputs and parameters by key, from one DescribeStacks call. */
    public Map<String, String> outputsAndParameters(String stackName) {
        try (CloudFormationClient cloudFormation = configure(CloudFormationClient.builder()).build()) {
            Stack stack = cloudFormation.describeStacks(r -> r.stackName(stackName)).stacks().get(0);
            Map<String, String> found = new LinkedHashMap<>();
            stack.parameters().forEach(p -> found.put(p.parameterKey(), p.parameterValue()));
            stack.outputs().forEach(o -> found.put(o.outputKey(), o.outputValue()));
            return found;
        } catch (SdkException e) {
            throw new IllegalStateException("cannot read stack " + stackName + ": " + e.getMessage(), e);
        }
    }

    private <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder) {
        builder.httpClientBuilder(UrlConnectionHttpClient.builder()).region(region).credentialsProvider(credentials);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder;
    }

    private static Region region(Map<String, String> env) throws UsageException {
        for (String name : new String[] {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
            if (env.get(name) != null && !env.get(name).isBlank()) {
                return Region.of(env.get(name));
            }
        }
        try {
            // The profile only: the default chain would also ask the EC2 metadata service, which takes seconds to fail.
            return new AwsProfileRegionProvider().getRegion();
        } catch (SdkException e) {
            throw new UsageException("no AWS region: set AWS_REGION (or a region in your AWS profile)");
        }
    }

    @Override
    public void close() {
        dynamoDb.close();
        sqs.close();
        cloudWatch.close();
        for (AutoCloseable client : configClients) {
            try {
                client.close();
            } catch (Exception e) {
                // closing is best effort
            }
        }
    }
}
