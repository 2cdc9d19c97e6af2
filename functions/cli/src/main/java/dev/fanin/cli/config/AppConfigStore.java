package dev.fanin.cli.config;

import dev.fanin.lambda.ConfigDocument;
import dev.fanin.lambda.ConfigLocation;
import java.util.Optional;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;

/**
 * A configuration in an AppConfig configuration profile ({@code appconfig:application/environment/profile}), read as
 * the functions read it, through the AppConfig data API: the document deployed to the environment. Publishing is
 * AppConfig's own two steps (a hosted configuration version, then a deployment with the strategy of your choice),
 * which fanin leaves to the AWS CLI: the SDK's AppConfig control-plane module is not served by the registry this
 * project builds from.
 */
final class AppConfigStore implements ConfigStore {

    private final ConfigLocation location;
    private final ConfigDocument reader;

    AppConfigStore(AppConfigDataClient data, ConfigLocation location) {
        this.location = location;
        this.reader = ConfigDocument.appConfig(data, location);
    }

    @Override
    public Optional<String> read() {
        return ConfigStore.published(reader);
    }

    @Override
    public String publish(String document, boolean first) {
        throw new IllegalStateException(refusal());
    }

    @Override
    public String refusal() {
        return "fanin does not deploy AppConfig versions; with the AWS CLI:"
                + " aws appconfig create-hosted-configuration-version --application-id APP_ID --configuration-profile-id"
                + " PROFILE_ID --content-type application/x-yaml --content fileb://FILE version.json, then aws appconfig"
                + " start-deployment --application-id APP_ID --environment-id ENV_ID --configuration-profile-id PROFILE_ID"
                + " --deployment-strategy-id AppConfig.AllAtOnce --configuration-version N (the ids of " + location + ")";
    }
}
