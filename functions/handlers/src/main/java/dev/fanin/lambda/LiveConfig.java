package dev.fanin.lambda;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.Metrics;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline configuration in force in this function: the last valid document read from its location. The
 * document is read again at most once per {@code refresh} (an external one; a jar resource or file is read once),
 * at the start of an invocation, and only a document that validates replaces the one in force. An invalid document
 * never does: it is logged once at ERROR with every problem (each names its pipeline and field) and counted
 * ({@value FunctionMetricNames#CONFIG_REJECTED}) at every read while it is the newest; a document that cannot be
 * read is counted ({@value FunctionMetricNames#CONFIG_UNAVAILABLE}) and logged at WARN. Until a valid document has
 * been read, a new instance (a cold start, a scale-out) runs on the last document the functions ran, as the pipeline
 * history records it ({@code lastRun}), so that one invalid or unreadable publish does not fail every invocation of
 * every instance started after it; with neither, {@link #current} fails, so every invocation fails with the reason
 * instead of running without one. Valid means what this function can run too: a document whose emit target refers to
 * an environment variable the function does not have ({@code ${...}}) is rejected the same way, never put in force.
 */
final class LiveConfig {

    /** How often an external document is read again. */
    static final Duration REFRESH = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(LiveConfig.class);

    private final ConfigLocation location;
    private final ConfigDocument document;
    private final Metrics metrics;
    private final Duration refresh;
    private final Consumer<FaninConfig> runnable;
    private final Supplier<Optional<String>> lastRun;
    private FaninConfig inForce;
    private String inForceDocument;
    private String inForceDigest;
    private String rejectedDigest;
    private String problem = "not read yet";
    private Instant nextRead = Instant.MIN;

    /**
     * @param runnable throws {@link IllegalStateException} naming what keeps a loaded configuration from running in
     *                 this function (its emit targets' {@code ${...}} references resolved against its environment)
     */
    /**
     * @param lastRun the document the functions last ran (the pipeline history's), empty when none or unreadable: in
     *                force while the location's document never was valid in this instance
     */
    LiveConfig(ConfigLocation location, ConfigDocument document, Metrics metrics, Duration refresh, Consumer<FaninConfig> runnable,
               Supplier<Optional<String>> lastRun) {
        this.location = Objects.requireNonNull(location, "location");
        this.document = Objects.requireNonNull(document, "document");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.refresh = Objects.requireNonNull(refresh, "refresh");
        this.runnable = Objects.requireNonNull(runnable, "runnable");
        this.lastRun = Objects.requireNonNull(lastRun, "lastRun");
    }

    /**
     * The configuration in force at {@code now}, after reading the document again if it is due.
     *
     * @throws NoValidConfigurationException when no valid document has been read yet, with the reason
     */
    synchronized FaninConfig current(Instant now) {
        if (!now.isBefore(nextRead)) {
            nextRead = location.isExternal() || inForce == null ? now.plus(refresh) : Instant.MAX;
            read();
            if (inForce == null) {
                runLastRun();
            }
        }
        if (inForce == null) {
            throw new NoValidConfigurationException("fanin has no valid pipeline configuration ("
                    + EnvironmentVariables.CONFIG + "=" + location + "): " + problem);
        }
        return inForce;
    }

    /** The text of the document in force (null before one). */
    synchronized String document() {
        return inForceDocument;
    }

    /** A short digest of the document in force (null before one), as the log lines name it. */
    synchronized String digest() {
        return inForceDigest;
    }

    private void read() {
        String text;
        try {
            text = document.read();
        } catch (ConfigDocument.ConfigUnavailableException e) {
            problem = e.getMessage();
            metrics.record(FunctionMetricNames.CONFIG_UNAVAILABLE, 1, Metrics.Unit.COUNT, Map.of());
            LOG.warn("pipeline configuration not read{}: {}", inForce == null ? "" : "; configuration " + inForceDigest
                    + " stays in force", e.getMessage());
            return;
        }
        String digest = digest(text);
        if (digest.equals(inForceDigest)) {
            return;
        }
        if (digest.equals(rejectedDigest)) {
            metrics.record(FunctionMetricNames.CONFIG_REJECTED, 1, Metrics.Unit.COUNT, Map.of());
            return;
        }
        try {
            FaninConfig config = ConfigLoader.load(text, location.toString());
            runnable.accept(config);
            LOG.info("pipeline configuration {} from {} in force{}: pipelines {}", digest, location,
                    inForce == null ? "" : " (was " + inForceDigest + ")",
                    config.pipelines().stream().map(PipelineConfig::name).toList());
            inForce = config;
            inForceDocument = text;
            inForceDigest = digest;
            rejectedDigest = null;
        } catch (ConfigException | IllegalStateException e) {
            rejectedDigest = digest;
            problem = "the document " + digest + " is invalid: " + e.getMessage();
            metrics.record(FunctionMetricNames.CONFIG_REJECTED, 1, Metrics.Unit.COUNT, Map.of());
            LOG.error("pipeline configuration {} rejected, {}: {}", digest,
                    inForce == null ? "and no valid one is in force: every invocation fails until a valid one is published"
                            : "configuration " + inForceDigest + " stays in force", e.getMessage());
        }
    }

    /** Puts the document the functions last ran in force, if there is one and this function can run it. */
    private void runLastRun() {
        Optional<String> text = lastRun.get();
        if (text.isEmpty()) {
            return;
        }
        String digest = digest(text.get());
        try {
            FaninConfig config = ConfigLoader.loadRecorded(text.get(), "the pipeline history (the configuration the functions last ran)");
            runnable.accept(config);
            inForce = config;
            inForceDocument = text.get();
            inForceDigest = digest;
            LOG.warn("pipeline configuration from {} not in force ({}); running on {}, the configuration the functions last ran "
                    + "(pipeline history), until a valid one is published: pipelines {}", location, problem, digest,
                    config.pipelines().stream().map(PipelineConfig::name).toList());
        } catch (ConfigException | IllegalStateException e) {
            LOG.error("the configuration the functions last ran ({}) cannot run here either: {}", digest, e.getMessage());
        }
    }

    /** The first 12 hex digits of the document's SHA-256. */
    static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
