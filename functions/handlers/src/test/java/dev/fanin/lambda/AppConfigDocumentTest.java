package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fanin.core.port.Metrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;

/**
 * AppConfig, checked against its client contract: no local endpoint here serves the AppConfig data API (moto has the
 * control plane only), so a small HTTP server on the loopback plays it, as the API reference describes it:
 * {@code StartConfigurationSession} returns a first token; each {@code GetLatestConfiguration} takes the last token
 * and returns the next one, with the document, or an empty body when nothing changed since that token. What is
 * tested for real is ours and Powertools': the session is started once, tokens are chained, an unchanged document
 * keeps the configuration in force, and a new one replaces it. (With AWS, the same code runs against the service.)
 */
class AppConfigDocumentTest {

    private HttpServer server;
    private final List<String> calls = new ArrayList<>();
    private volatile String document;
    private volatile int version;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/configurationsessions", this::startSession);
        server.createContext("/configuration", this::latest);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void theSessionIsStartedOnceTokensAreChainedAndOnlyANewDocumentIsReadAgain() {
        document = "version: 1\npipelines:\n" + pipeline("runs");
        version = 1;
        LiveConfig config = new LiveConfig(ConfigLocation.parse("appconfig:fanin/prod/pipelines"),
                ParameterConfigDocument.appConfig(client(), ConfigLocation.parse("appconfig:fanin/prod/pipelines")),
                Metrics.NONE, Duration.ofMinutes(1), c -> { }, java.util.Optional::empty);
        Instant t = Instant.parse("2026-12-01T00:00:00Z");

        var first = config.current(t);
        var unchanged = config.current(t.plusSeconds(60));
        document = "version: 1\npipelines:\n" + pipeline("runs") + pipeline("jobs");
        version = 2;
        var changed = config.current(t.plusSeconds(120));

        assertThat(calls).containsExactly(
                "start fanin/prod/pipelines",
                "get token-0 -> 1",
                "get token-1 -> unchanged",
                "get token-2 -> 2");
        assertThat(first.pipelines()).hasSize(1);
        assertThat(unchanged).as("an empty body: nothing changed").isSameAs(first);
        assertThat(changed.pipelines()).hasSize(2);
    }

    /** AppConfig refuses a token after 24 hours: an instance idle for a day, or restored from an older snapshot. */
    @Test
    void aRefusedTokenStartsANewSessionSoAPublishAfterADayStillArrives() {
        document = "version: 1\npipelines:\n" + pipeline("runs");
        version = 1;
        ConfigLocation where = ConfigLocation.parse("appconfig:fanin/prod/pipelines");
        LiveConfig config = new LiveConfig(where, ParameterConfigDocument.appConfig(client(), where), Metrics.NONE,
                Duration.ofMinutes(1), c -> { }, java.util.Optional::empty);
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        config.current(t);
        expired.addAll(versionAtToken.keySet());
        document = "version: 1\npipelines:\n" + pipeline("runs") + pipeline("jobs");
        version = 2;

        var later = config.current(t.plus(Duration.ofHours(25)));

        assertThat(calls).containsExactly("start fanin/prod/pipelines", "get token-0 -> 1", "get token-1 -> 400 expired",
                "start fanin/prod/pipelines", "get token-s4 -> 2");
        assertThat(later.pipelines()).hasSize(2);
    }

    private void startSession(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        var json = LocalFanin.json(body);
        calls.add("start " + json.path("ApplicationIdentifier").asText() + "/" + json.path("EnvironmentIdentifier").asText()
                + "/" + json.path("ConfigurationProfileIdentifier").asText());
        String initial = calls.size() == 1 ? "token-0" : "token-s" + calls.size(); // each session its own first token
        versionAtToken.put(initial, 0);
        respond(exchange, 201, "application/json", ("{\"InitialConfigurationToken\":\"" + initial + "\"}").getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** Each token handed out, with the version the client had received when it got it (0: none yet). */
    private final Map<String, Integer> versionAtToken = new java.util.HashMap<>(Map.of("token-0", 0));
    /** Tokens older than 24 hours, which AppConfig refuses (BadRequestException). */
    private final java.util.Set<String> expired = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private void latest(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        String token = query.substring(query.indexOf("configuration_token=") + "configuration_token=".length());
        if (expired.contains(token)) {
            calls.add("get " + token + " -> 400 expired");
            respond(exchange, 400, "application/json", "{\"Message\":\"Token expired\"}".getBytes(StandardCharsets.UTF_8),
                    Map.of("x-amzn-ErrorType", "BadRequestException"));
            return;
        }
        boolean changed = versionAtToken.get(token) != version;
        String next = "token-" + calls.size();
        versionAtToken.put(next, version);
        calls.add("get " + token + " -> " + (changed ? String.valueOf(version) : "unchanged"));
        respond(exchange, 200, "application/x-yaml", changed ? document.getBytes(StandardCharsets.UTF_8) : new byte[0],
                Map.of("Next-Poll-Configuration-Token", next, "Next-Poll-Interval-In-Seconds", "60"));
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body, Map<String, String> headers)
            throws IOException {
        exchange.getResponseHeaders().add("Content-Type", contentType);
        headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    private AppConfigDataClient client() {
        return AppConfigDataClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-test", "fanin-test")))
                .endpointOverride(URI.create("http://127.0.0.1:" + server.getAddress().getPort())).build();
    }

    private static String pipeline(String name) {
        return "  - name: " + name + "\n    match: [{path: $.type, equals: " + name + "}]\n    key: [$.id]\n    window: {type: tumbling, size: 1h}\n    triggers: {maxLifetime: 2h}\n";
    }
}
