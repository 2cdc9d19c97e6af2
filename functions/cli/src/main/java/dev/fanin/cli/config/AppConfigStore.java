package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;

/**
 * A configuration in an AppConfig configuration profile ({@code appconfig:application/environment/profile}), read as
 * the functions read it, through the AppConfig data API: the document deployed to the environment. Published in
 * AppConfig's two steps: a new hosted configuration version of the profile, then a deployment of that version to the
 * environment with the deployment strategy chosen, which decides how fast the functions get it.
 */
final class AppConfigStore implements ConfigStore {

    /** The predefined strategy that deploys to every reader at once, then bakes 10 minutes watching the alarms. */
    static final String ALL_AT_ONCE = "AppConfig.AllAtOnce";
    private static final String CONTENT_TYPE = "application/x-yaml";

    private final AppConfigControlPlane controlPlane;
    private final ConfigLocation location;
    private final String strategy;
    private final ConfigDocument reader;

    AppConfigStore(AppConfigDataClient data, AppConfigControlPlane controlPlane, ConfigLocation location, String strategy) {
        this.controlPlane = controlPlane;
        this.location = location;
        this.strategy = strategy;
        this.reader = ConfigDocument.appConfig(data, location);
    }

    @Override
    public Optional<String> read() {
        return ConfigStore.published(reader);
    }

    @Override
    public String plan() {
        return "create a hosted configuration version of profile " + location.profile() + " of application " + location.path()
                + " and deploy it to environment " + location.key() + " with deployment strategy " + strategy;
    }

    @Override
    public String publish(String document, boolean first) {
        AppConfigControlPlane.Ids ids = controlPlane.resolve(location);
        int version = controlPlane.createHostedConfigurationVersion(ids, CONTENT_TYPE, document.getBytes(StandardCharsets.UTF_8));
        String created = "hosted configuration version " + version + " of " + location + " created (application " + ids.application()
                + ", profile " + ids.profile() + ")";
        AppConfigControlPlane.Deployment deployment;
        try {
            deployment = controlPlane.startDeployment(ids, strategy, version);
        } catch (RuntimeException e) {
            throw new IllegalStateException(created + " but not deployed: " + e.getMessage(), e);
        }
        return created + ", deployment " + deployment.number() + " to environment " + location.key() + " (" + ids.environment()
                + ") started with " + strategy + ": " + deployment.state();
    }
}
