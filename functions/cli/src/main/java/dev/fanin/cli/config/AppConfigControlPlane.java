package dev.fanin.cli.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fanin.cli.ops.OperatorClients;
import dev.fanin.lambda.ConfigLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;

/**
 * AWS AppConfig's control plane, the few calls {@code fanin config publish} makes, as its REST-JSON API reference
 * (API version 2019-10-09) describes them, sent through the SDK's own HTTP client and SigV4 signer (signing name
 * {@code appconfig}). The SDK's {@code appconfig} module would do the same, but the registry this project builds from
 * does not serve it. Credentials, region and endpoint are the operator's ({@link OperatorClients}).
 */
final class AppConfigControlPlane {

    /** An AppConfig id, as the API's {@code Id} shape defines it; anything else is a name. */
    private static final Pattern ID = Pattern.compile("[a-z0-9]{4,7}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final Region region;
    private final URI endpoint;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    /** The ids of an {@code appconfig:} location's application, environment and configuration profile. */
    record Ids(String application, String environment, String profile) { }

    /** A deployment StartDeployment began: its number in the environment and its state (DEPLOYING, BAKING...). */
    record Deployment(int number, String state) { }

    /** An answer of the service: its HTTP status, headers and body. */
    record Answer(int status, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name)).flatMap(h -> h.getValue().stream())
                    .findFirst().orElse(null);
        }

        JsonNode json() {
            try {
                return body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("AppConfig answered HTTP " + status + " with a body that is not JSON", e);
            }
        }
    }

    /** AppConfig refused a call: the operation, the HTTP status and AppConfig's own error type and message. */
    static final class ServiceError extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String type;

        ServiceError(String operation, Answer answer) {
            this(operation, answer, body(answer));
        }

        private ServiceError(String operation, Answer answer, JsonNode body) {
            this(operation, answer.status(), type(answer, body), body.path("Message").asText(body.path("message").asText("")));
        }

        private ServiceError(String operation, int status, String type, String message) {
            super("AppConfig " + operation + " answered HTTP " + status + (type.isEmpty() ? "" : " " + type)
                    + (message.isEmpty() ? "" : ": " + message));
            this.status = status;
            this.type = type;
        }

        /** Whether the resource asked for does not exist (moto says so with HTTP 400, AWS with 404). */
        boolean notFound() {
            return status == 404 || type.equals("ResourceNotFoundException");
        }

        private static JsonNode body(Answer answer) {
            try {
                return answer.json();
            } catch (IllegalStateException notJson) {
                return JSON.createObjectNode();
            }
        }

        /** AWS writes the type as "Name:namespace" (header) or "namespace#Name" (body): the name is what an operator needs. */
        private static String type(Answer answer, JsonNode body) {
            String type = answer.header("x-amzn-ErrorType");
            type = type != null ? type : body.path("__type").asText("");
            return type.replaceFirst(":.*$", "").replaceFirst("^.*#", "");
        }
    }

    AppConfigControlPlane(SdkHttpClient http, AwsCredentialsProvider credentials, Region region, URI endpoint) {
        this.http = http;
        this.credentials = credentials;
        this.region = region;
        this.endpoint = endpoint;
    }

    /** The control plane of the operator's region (or their endpoint override), its HTTP client closed with theirs. */
    static AppConfigControlPlane of(OperatorClients clients) {
        Region region = Region.of(clients.region());
        URI endpoint = clients.endpointOverride()
                .orElseGet(() -> URI.create("https://appconfig." + region.id() + "." + PartitionMetadata.of(region).dnsSuffix()));
        return new AppConfigControlPlane(clients.closedWithThese(UrlConnectionHttpClient.builder().build()), clients.credentials(),
                region, endpoint);
    }

    /**
     * The ids of the location's application, environment and profile, each given as a name or an id: a text shaped
     * like an id that names one is taken as it is (GetApplication, GetEnvironment, GetConfigurationProfile); anything
     * else is looked up by name (ListApplications, ListEnvironments, ListConfigurationProfiles).
     */
    Ids resolve(ConfigLocation location) {
        String application = id("Application", "/applications", location.path());
        String environment = id("Environment", "/applications/" + application + "/environments", location.key());
        String profile = id("ConfigurationProfile", "/applications/" + application + "/configurationprofiles", location.profile());
        return new Ids(application, environment, profile);
    }

    /**
     * The id of the {@code kind} (as the API names it: Application...) named (or identified by) {@code nameOrId} in the
     * collection at {@code path}.
     */
    String id(String kind, String path, String nameOrId) {
        if (ID.matcher(nameOrId).matches()) {
            try {
                return send("Get" + kind, SdkHttpMethod.GET, path + "/" + nameOrId, Map.of(), null, null).json().path("Id").asText();
            } catch (ServiceError e) {
                if (!e.notFound()) {
                    throw e;
                }
            }
        }
        List<String> named = new ArrayList<>();
        String next = null;
        do {
            Map<String, String> query = new LinkedHashMap<>(Map.of("max_results", "50"));
            if (next != null) {
                query.put("next_token", next);
            }
            JsonNode page = send("List" + kind + "s", SdkHttpMethod.GET, path, query, null, null).json();
            page.path("Items").forEach(item -> {
                if (nameOrId.equals(item.path("Name").asText())) {
                    named.add(item.path("Id").asText());
                }
            });
            next = page.path("NextToken").asText(null);
        } while (next != null);
        if (named.size() != 1) {
            String what = kind.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
            throw new IllegalStateException(named.isEmpty() ? "AppConfig in " + region.id() + " has no " + what + " named or with the id \""
                    + nameOrId + "\"" : named.size() + " AppConfig " + what + "s are named \"" + nameOrId + "\" (ids "
                    + String.join(", ", named) + "): give the id in the location instead");
        }
        return named.get(0);
    }

    /** CreateHostedConfigurationVersion: stores {@code content} as the profile's next version and returns its number. */
    int createHostedConfigurationVersion(Ids ids, String contentType, byte[] content) {
        Answer answer = send("CreateHostedConfigurationVersion", SdkHttpMethod.POST, "/applications/" + ids.application()
                + "/configurationprofiles/" + ids.profile() + "/hostedconfigurationversions", Map.of(), contentType, content);
        String version = answer.header("Version-Number");
        if (version == null) {
            throw new IllegalStateException("AppConfig CreateHostedConfigurationVersion answered HTTP " + answer.status()
                    + " without the header Version-Number");
        }
        return Integer.parseInt(version.strip());
    }

    /** StartDeployment: deploys {@code version} of the profile to the environment with {@code strategy}. */
    Deployment startDeployment(Ids ids, String strategy, int version) {
        String body = JSON.createObjectNode().put("DeploymentStrategyId", strategy).put("ConfigurationProfileId", ids.profile())
                .put("ConfigurationVersion", String.valueOf(version)).toString();
        JsonNode deployment = send("StartDeployment", SdkHttpMethod.POST, "/applications/" + ids.application() + "/environments/"
                + ids.environment() + "/deployments", Map.of(), "application/json", body.getBytes(StandardCharsets.UTF_8)).json();
        return new Deployment(deployment.path("DeploymentNumber").asInt(), deployment.path("State").asText());
    }

    /**
     * One signed call; a 2xx answer is returned, any other is thrown as a {@link ServiceError}.
     *
     * @param contentType the body's type, with {@code body} (null without)
     */
    Answer send(String operation, SdkHttpMethod method, String path, Map<String, String> query, String contentType, byte[] body) {
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder().method(method).uri(endpoint.resolve(path));
        query.forEach(request::putRawQueryParameter);
        if (body != null) {
            request.putHeader("Content-Type", contentType).putHeader("Content-Length", String.valueOf(body.length));
        }
        ContentStreamProvider payload = body == null ? null : ContentStreamProvider.fromByteArrayUnsafe(body);
        SignedRequest signed = signer.sign(r -> r.identity(credentials.resolveCredentials()).request(request.build()).payload(payload)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "appconfig").putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
        Answer answer;
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(null)).build()).call();
            byte[] bytes = new byte[0];
            if (response.responseBody().isPresent()) {
                try (InputStream in = response.responseBody().get()) {
                    bytes = in.readAllBytes();
                }
            }
            answer = new Answer(response.httpResponse().statusCode(), response.httpResponse().headers(), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("AppConfig " + operation + ": no answer from " + endpoint + ": " + e.getMessage(), e);
        }
        if (answer.status() / 100 != 2) {
            throw new ServiceError(operation, answer);
        }
        return answer;
    }
}
