package dev.fanin.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fanin.cli.FaninCli;
import dev.fanin.cli.config.ConfigCommandTest.Run;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fanin config publish} to an AppConfig location, end to end, against what no local endpoint here serves (moto
 * has no environments, deployments or ListApplications, and no data API): a loopback server plays AppConfig as its
 * API reference describes it, the data API the diff reads through and the control plane publish writes through. Every
 * control-plane request is checked as AWS would check it: method, path, query, body, and its SigV4 signature
 * recomputed from them ({@link SigV4Check}).
 */
class AppConfigPublishTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BUNDLED = bundled();
    private static final String LOCATION = "appconfig:fanin/prod/pipelines";

    private HttpServer server;
    /** The control-plane calls, "METHOD path?query", in order. */
    private final List<String> calls = new ArrayList<>();
    private final List<byte[]> versions = new ArrayList<>();
    private final List<String> contentTypes = new ArrayList<>();
    private final List<JsonNode> deployments = new ArrayList<>();
    private volatile int deployed;
    private volatile boolean deploymentInProgress;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/configurationsessions", this::startSession);
        server.createContext("/configuration", this::latestConfiguration);
        server.createContext("/applications", this::controlPlane);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aFirstPublishCreatesVersionOneAndDeploysItAnIdenticalOneWritesNothingAChangeIsVersionTwo() throws IOException {
        Path bundled = Files.writeString(dir.resolve("bundled.yaml"), BUNDLED);
        Path changed = Files.writeString(dir.resolve("changed.yaml"), BUNDLED.replace("      gap: 10m\n", "      gap: 20m\n"));

        Run first = publish(bundled);
        List<String> firstCalls = List.copyOf(calls);
        Run same = publish(bundled);
        Run change = publish(changed, "--deployment-strategy", "AppConfig.Linear20PercentEvery6Minutes");

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("nothing is published at " + LOCATION + " yet: every pipeline is new")
                .contains("published: hosted configuration version 1 of " + LOCATION + " created (application app0001, profile"
                        + " prof001), deployment 1 to environment prod (env0001) started with AppConfig.AllAtOnce: DEPLOYING");
        assertThat(firstCalls).as("a name shaped like an id tried as one, names looked up page by page, then one version and one"
                + " deployment").containsExactly(
                "GET /applications/fanin",
                "GET /applications?max_results=50",
                "GET /applications?max_results=50&next_token=page%2F2",
                "GET /applications/app0001/environments/prod",
                "GET /applications/app0001/environments?max_results=50",
                "GET /applications/app0001/configurationprofiles?max_results=50",
                "POST /applications/app0001/configurationprofiles/prof001/hostedconfigurationversions",
                "POST /applications/app0001/environments/env0001/deployments");
        assertThat(new String(versions.get(0), StandardCharsets.UTF_8)).isEqualTo(BUNDLED);
        assertThat(contentTypes.get(0)).isEqualTo("application/x-yaml");
        assertThat(deployments.get(0)).isEqualTo(JSON.readTree("{\"DeploymentStrategyId\":\"AppConfig.AllAtOnce\","
                + "\"ConfigurationProfileId\":\"prof001\",\"ConfigurationVersion\":\"1\"}"));

        assertThat(same.exit()).isZero();
        assertThat(same.out()).contains("no change: the document is the one published").endsWith("nothing published\n");
        assertThat(change.exit()).as(change.err()).isZero();
        assertThat(change.out()).contains("file-uploads: window changed").contains("hosted configuration version 2 of " + LOCATION)
                .contains("deployment 2 to environment prod (env0001) started with AppConfig.Linear20PercentEvery6Minutes");
        assertThat(versions).hasSize(2);
        assertThat(deployments.get(1).path("DeploymentStrategyId").asText()).isEqualTo("AppConfig.Linear20PercentEvery6Minutes");
        assertThat(deployments.get(1).path("ConfigurationVersion").asText()).isEqualTo("2");
    }

    @Test
    void idsInTheLocationAreTakenAsTheyAre() throws IOException {
        Run run = publish(Files.writeString(dir.resolve("bundled.yaml"), BUNDLED), "--location", "appconfig:app0001/env0001/prof001");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(calls).startsWith("GET /applications/app0001", "GET /applications/app0001/environments/env0001",
                "GET /applications/app0001/configurationprofiles/prof001");
        assertThat(versions).hasSize(1);
    }

    @Test
    void aDeploymentRefusedSaysTheVersionWasCreatedButNotDeployedAndAppConfigsAnswer() throws IOException {
        deploymentInProgress = true;

        Run run = publish(Files.writeString(dir.resolve("bundled.yaml"), BUNDLED));

        assertThat(run.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(run.err()).startsWith("fanin config publish failed: hosted configuration version 1 of " + LOCATION + " created"
                + " (application app0001, profile prof001) but not deployed: AppConfig StartDeployment answered HTTP 409"
                + " ConflictException: Deployment number 7 is already in progress in environment env0001\n");
        assertThat(run.out()).doesNotContain("published:");
    }

    @Test
    void anUnknownEnvironmentIsNamedAndNothingIsCreated() throws IOException {
        Run run = publish(Files.writeString(dir.resolve("bundled.yaml"), BUNDLED), "--location", "appconfig:fanin/qa/pipelines");

        assertThat(run.exit()).isEqualTo(FaninCli.INVALID_INPUT);
        assertThat(run.err()).contains("AppConfig in us-east-1 has no environment named or with the id \"qa\"");
        assertThat(versions).isEmpty();
    }

    private Run publish(Path file, String... more) {
        List<String> args = new ArrayList<>(List.of("config", "publish", file.toString(), "--yes"));
        args.addAll(List.of(more));
        if (!args.contains("--location")) {
            args.addAll(List.of("--location", LOCATION));
        }
        return ConfigCommandTest.run(Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:" + server.getAddress().getPort(), "AWS_REGION",
                "us-east-1", "AWS_ACCESS_KEY_ID", SigV4Check.KEY, "AWS_SECRET_ACCESS_KEY", SigV4Check.SECRET), "", args.toArray(String[]::new));
    }

    /** The control plane: the calls publish makes, each checked for its signature; anything else is not found (GET) or a 400. */
    private void controlPlane(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        String call = exchange.getRequestMethod() + " " + path + (query == null ? "" : "?" + query);
        calls.add(call);
        String problem = SigV4Check.problem(exchange, body);
        if (problem != null) {
            error(exchange, 403, "InvalidSignatureException", problem);
            return;
        }
        switch (call) {
            case "GET /applications?max_results=50" -> json(exchange, 200, "{\"Items\":[{\"Id\":\"oth0001\",\"Name\":\"other\"}],"
                    + "\"NextToken\":\"page/2\"}");
            case "GET /applications?max_results=50&next_token=page%2F2" -> json(exchange, 200,
                    "{\"Items\":[{\"Id\":\"app0001\",\"Name\":\"fanin\",\"Description\":\"\"}]}");
            case "GET /applications/app0001" -> json(exchange, 200, "{\"Id\":\"app0001\",\"Name\":\"fanin\"}");
            case "GET /applications/app0001/environments?max_results=50" -> json(exchange, 200, "{\"Items\":["
                    + "{\"ApplicationId\":\"app0001\",\"Id\":\"env0002\",\"Name\":\"staging\",\"State\":\"READY_FOR_DEPLOYMENT\"},"
                    + "{\"ApplicationId\":\"app0001\",\"Id\":\"env0001\",\"Name\":\"prod\",\"State\":\"READY_FOR_DEPLOYMENT\"}]}");
            case "GET /applications/app0001/environments/env0001" -> json(exchange, 200, "{\"ApplicationId\":\"app0001\",\"Id\":\"env0001\","
                    + "\"Name\":\"prod\"}");
            case "GET /applications/app0001/configurationprofiles?max_results=50" -> json(exchange, 200, "{\"Items\":["
                    + "{\"ApplicationId\":\"app0001\",\"Id\":\"prof001\",\"Name\":\"pipelines\",\"LocationUri\":\"hosted\"}]}");
            case "GET /applications/app0001/configurationprofiles/prof001" -> json(exchange, 200, "{\"ApplicationId\":\"app0001\","
                    + "\"Id\":\"prof001\",\"Name\":\"pipelines\",\"LocationUri\":\"hosted\"}");
            case "POST /applications/app0001/configurationprofiles/prof001/hostedconfigurationversions" -> createVersion(exchange, body);
            case "POST /applications/app0001/environments/env0001/deployments" -> startDeployment(exchange, body);
            default -> {
                if (exchange.getRequestMethod().equals("GET")) {
                    error(exchange, 404, "ResourceNotFoundException", "Resource not found: " + call);
                } else {
                    error(exchange, 400, "BadRequestException", "not played by this test: " + call);
                }
            }
        }
    }

    /** CreateHostedConfigurationVersion: the document is the body; the answer echoes it with its number in headers. */
    private void createVersion(HttpExchange exchange, byte[] body) throws IOException {
        versions.add(body);
        contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
        exchange.getResponseHeaders().add("Application-Id", "app0001");
        exchange.getResponseHeaders().add("Configuration-Profile-Id", "prof001");
        exchange.getResponseHeaders().add("Version-Number", String.valueOf(versions.size()));
        respond(exchange, 201, exchange.getRequestHeaders().getFirst("Content-Type"), body);
    }

    private void startDeployment(HttpExchange exchange, byte[] body) throws IOException {
        if (deploymentInProgress) {
            error(exchange, 409, "ConflictException", "Deployment number 7 is already in progress in environment env0001");
            return;
        }
        JsonNode request = JSON.readTree(body);
        deployments.add(request);
        deployed = request.path("ConfigurationVersion").asInt();
        json(exchange, 201, "{\"ApplicationId\":\"app0001\",\"EnvironmentId\":\"env0001\",\"DeploymentStrategyId\":\""
                + request.path("DeploymentStrategyId").asText() + "\",\"ConfigurationProfileId\":\"prof001\",\"DeploymentNumber\":"
                + deployments.size() + ",\"ConfigurationName\":\"pipelines\",\"ConfigurationVersion\":\"" + deployed + "\","
                + "\"State\":\"DEPLOYING\",\"PercentageComplete\":0.0}");
    }

    /** StartConfigurationSession (data API), for the names the location gives. */
    private void startSession(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
        boolean ours = List.of("fanin", "app0001").contains(request.path("ApplicationIdentifier").asText());
        json(exchange, ours ? 201 : 404, ours ? "{\"InitialConfigurationToken\":\"token\"}" : "{\"Message\":\"no such application\"}");
    }

    /** GetLatestConfiguration (data API): the version deployed, or ResourceNotFound before any deployment. */
    private void latestConfiguration(HttpExchange exchange) throws IOException {
        if (deployed == 0) {
            error(exchange, 404, "ResourceNotFoundException", "Deployment not found");
            return;
        }
        exchange.getResponseHeaders().add("Next-Poll-Configuration-Token", "token");
        exchange.getResponseHeaders().add("Next-Poll-Interval-In-Seconds", "60");
        respond(exchange, 200, contentTypes.get(deployed - 1), versions.get(deployed - 1));
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        exchange.getResponseHeaders().add("x-amzn-ErrorType", type + ":http://internal.amazon.com/coral/com.amazon.appconfig/");
        json(exchange, status, JSON.createObjectNode().put("Message", message).toString());
    }

    private static void json(HttpExchange exchange, int status, String json) throws IOException {
        respond(exchange, status, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    private static String bundled() {
        try (InputStream in = AppConfigPublishTest.class.getClassLoader().getResourceAsStream("fanin/pipelines.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
