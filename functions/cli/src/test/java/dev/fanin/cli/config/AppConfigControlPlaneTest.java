package dev.fanin.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.fanin.testkit.LocalAwsEndpoint;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The AppConfig control-plane calls against the part of AppConfig moto 5.2 serves (applications, configuration profiles
 * and hosted configuration versions, by id; no ListApplications, no environments, no deployments: those are
 * {@link AppConfigPublishTest}'s). moto checks what the SDK's signer produced is a request it can route and read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppConfigControlPlaneTest {

    private final LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
    private AppConfigControlPlane appConfig;
    private String application;
    private String profile;

    @BeforeAll
    void application() {
        assumeFalse(endpoint.kind().equals("localstack"), "LocalStack's community image serves no AppConfig");
        appConfig = new AppConfigControlPlane(UrlConnectionHttpClient.create(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("fanin-local", "fanin-local")), LocalAwsEndpoint.REGION,
                endpoint.endpoint());
        application = create("/applications", "{\"Name\":\"fanin-" + UUID.randomUUID().toString().substring(0, 8) + "\"}");
        profile = create("/applications/" + application + "/configurationprofiles", "{\"Name\":\"pipelines\",\"LocationUri\":\"hosted\"}");
        create("/applications/" + application + "/configurationprofiles", "{\"Name\":\"other\",\"LocationUri\":\"hosted\"}");
    }

    @Test
    void anIdIsTakenAsItIsAndANameIsLookedUp() {
        String profiles = "/applications/" + application + "/configurationprofiles";

        assertThat(appConfig.id("Application", "/applications", application)).as("GetApplication").isEqualTo(application);
        assertThat(appConfig.id("ConfigurationProfile", profiles, profile)).as("GetConfigurationProfile").isEqualTo(profile);
        assertThat(appConfig.id("ConfigurationProfile", profiles, "pipelines")).as("ListConfigurationProfiles").isEqualTo(profile);
        assertThatThrownBy(() -> appConfig.id("ConfigurationProfile", profiles, "missing"))
                .hasMessage("AppConfig in us-east-1 has no configuration profile named or with the id \"missing\"");
    }

    @Test
    void aHostedConfigurationVersionHoldsTheDocumentAsSentUnderTheNextNumber() {
        var ids = new AppConfigControlPlane.Ids(application, "unused", profile);
        String first = "version: 1\npipelines: []\n";
        String second = "version: 1\npipelines: [] # again\n";

        int one = appConfig.createHostedConfigurationVersion(ids, "application/x-yaml", first.getBytes(StandardCharsets.UTF_8));
        int two = appConfig.createHostedConfigurationVersion(ids, "application/x-yaml", second.getBytes(StandardCharsets.UTF_8));

        assertThat(two).isEqualTo(one + 1);
        var stored = appConfig.send("GetHostedConfigurationVersion", SdkHttpMethod.GET, "/applications/" + application
                + "/configurationprofiles/" + profile + "/hostedconfigurationversions/" + one, Map.of(), null, null);
        assertThat(new String(stored.body(), StandardCharsets.UTF_8)).isEqualTo(first);
        assertThat(stored.header("content-type")).isEqualTo("application/x-yaml");
    }

    @Test
    void aRefusalNamesTheOperationTheStatusAndAppConfigsMessage() {
        var ids = new AppConfigControlPlane.Ids(application, "unused", "nosuch1");

        assertThatThrownBy(() -> appConfig.createHostedConfigurationVersion(ids, "application/x-yaml", new byte[] {'x'}))
                .isInstanceOf(AppConfigControlPlane.ServiceError.class)
                .as("moto answers HTTP 400 where AWS documents 404")
                .hasMessageMatching("AppConfig CreateHostedConfigurationVersion answered HTTP 40[04] ResourceNotFoundException:"
                        + " ConfigurationProfile not found");
    }

    /** A Create call (moto's part of the API the adapter has no method for), returning the new resource's id. */
    private String create(String path, String json) {
        return appConfig.send("Create", SdkHttpMethod.POST, path, Map.of(), "application/json", json.getBytes(StandardCharsets.UTF_8))
                .json().path("Id").asText();
    }
}
