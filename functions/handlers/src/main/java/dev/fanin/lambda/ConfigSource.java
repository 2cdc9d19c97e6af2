package dev.fanin.lambda;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Loads the pipeline configuration named by {@code FANIN_CONFIG}: {@code classpath:<resource>} or {@code file:<path>}. */
final class ConfigSource {

    private ConfigSource() {
    }

    /**
     * @throws dev.fanin.core.config.ConfigException listing every problem of the configuration
     * @throws IllegalStateException when the location names nothing
     */
    static FaninConfig load(String location) {
        if (location.startsWith("file:")) {
            return ConfigLoader.load(Path.of(location.substring("file:".length())));
        }
        if (!location.startsWith("classpath:")) {
            throw new IllegalStateException(EnvironmentVariables.CONFIG + " must be classpath:<resource> or file:<path>, was \"" + location + "\"");
        }
        String resource = location.substring("classpath:".length()).replaceFirst("^/", "");
        try (InputStream in = ConfigSource.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(EnvironmentVariables.CONFIG + "=" + location + ": no such resource in the function's jar;"
                        + " use " + EnvironmentVariables.DEFAULT_CONFIG + " or file:/opt/<path> from a layer");
            }
            return ConfigLoader.load(new String(in.readAllBytes(), StandardCharsets.UTF_8), location);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + location, e);
        }
    }
}
