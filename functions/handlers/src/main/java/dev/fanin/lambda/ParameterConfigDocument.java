package dev.fanin.lambda;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.appconfigdata.AppConfigDataClient;
import software.amazon.awssdk.services.appconfigdata.model.ResourceNotFoundException;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;
import software.amazon.lambda.powertools.parameters.appconfig.AppConfigProvider;
import software.amazon.lambda.powertools.parameters.cache.CacheManager;
import software.amazon.lambda.powertools.parameters.ssm.SSMProvider;

/**
 * A configuration document in an SSM parameter ({@code ssm:/name}, decrypted when it is a SecureString) or an AppConfig
 * configuration profile ({@code appconfig:app/env/profile}), read through Powertools' parameters providers. The
 * providers' own cache is off: {@link LiveConfig} decides when to read again. The AppConfig provider keeps the
 * configuration session and its poll token between reads, as the AppConfig data API requires, and a new session is
 * started when a read with them fails.
 */
final class ParameterConfigDocument implements ConfigDocument {

    private final Supplier<String> get;
    private final ConfigLocation location;

    private ParameterConfigDocument(Supplier<String> get, ConfigLocation location) {
        this.get = Objects.requireNonNull(get, "get");
        this.location = Objects.requireNonNull(location, "location");
    }

    static ParameterConfigDocument ssm(SsmClient ssm, ConfigLocation location) {
        SSMProvider provider = SSMProvider.builder().withClient(ssm).withCacheManager(uncached()).build();
        // Decryption is an option of one get: the provider resets it after each.
        return new ParameterConfigDocument(() -> provider.withDecryption().get(location.path()), location);
    }

    /**
     * A read that fails starts a new configuration session and tries once more: Powertools keeps the session's last
     * token and sends it again on every later read, and AppConfig refuses a token after 24 hours (or, used once, again):
     * an instance idle for a day, or restored from a SnapStart snapshot taken more than a day before, would otherwise
     * never read a new configuration.
     */
    static ParameterConfigDocument appConfig(AppConfigDataClient appConfig, ConfigLocation location) {
        Supplier<AppConfigProvider> session = () -> AppConfigProvider.builder().withClient(appConfig).withCacheManager(uncached())
                .withApplication(location.path()).withEnvironment(location.key()).build();
        AppConfigProvider[] current = {session.get()};
        return new ParameterConfigDocument(() -> {
            try {
                return current[0].get(location.profile());
            } catch (RuntimeException refused) {
                current[0] = session.get();
                return current[0].get(location.profile());
            }
        }, location);
    }

    private static CacheManager uncached() {
        CacheManager cache = new CacheManager();
        cache.setDefaultExpirationTime(Duration.ZERO);
        return cache;
    }

    @Override
    public synchronized String read() {
        String text;
        try {
            text = get.get();
        } catch (RuntimeException e) {
            if (nothingPublished(e)) {
                throw new DocumentMissingException(location + ": nothing published there (" + e.getMessage() + ")", e);
            }
            throw unavailable(e);
        }
        if (text == null) {
            throw new ConfigUnavailableException(location + ": no value");
        }
        return text;
    }

    private ConfigUnavailableException unavailable(RuntimeException e) {
        // Powertools wraps the SDK's failures in its own exceptions, whose message alone does not name the kind.
        boolean plain = e instanceof SdkException || e instanceof IllegalStateException;
        return new ConfigUnavailableException(location + ": " + (plain ? e.getMessage() : e.toString()), e);
    }

    /** Whether the store said the parameter or profile does not exist (Powertools may wrap the SDK's exception). */
    private static boolean nothingPublished(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ParameterNotFoundException || t instanceof ResourceNotFoundException) {
                return true;
            }
        }
        return false;
    }
}
