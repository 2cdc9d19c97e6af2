package dev.fanin.cli;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.ConfigProblem;
import dev.fanin.core.config.FaninConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The configuration a command reads: {@code --config FILE}, or the one bundled in the jar. Shared by validate and
 * explain so that both report a broken file identically.
 */
final class ConfigSource {

    static final Flag CONFIG = Flag.valued("config", "FILE", "the pipelines YAML file (default: the bundled classpath:"
            + ConfigLoader.BUNDLED_RESOURCE + ")");

    private final Optional<Path> file;

    private ConfigSource(Optional<Path> file) {
        this.file = file;
    }

    static ConfigSource from(Flags flags) throws UsageException {
        Optional<String> value = flags.value(CONFIG.name());
        if (value.isPresent() && value.get().isBlank()) {
            throw new UsageException("--config needs a file name: " + CONFIG.synopsis());
        }
        return new ConfigSource(value.map(Path::of));
    }

    boolean isBundled() {
        return file.isEmpty();
    }

    /** Where the configuration comes from, as the loader names it. */
    String origin() {
        return file.map(Path::toString).orElse("classpath:" + ConfigLoader.BUNDLED_RESOURCE);
    }

    /** @throws ConfigException listing every problem */
    FaninConfig load() {
        return file.map(ConfigLoader::load).orElseGet(ConfigLoader::loadBundled);
    }

    /** Every problem, one line each exactly as {@link ConfigProblem#toString()}, then the count. */
    static void printProblems(ConfigException rejected, PrintStream to) {
        for (ConfigProblem problem : rejected.problems()) {
            to.println(problem);
        }
        int count = rejected.problems().size();
        to.println(count + (count == 1 ? " problem" : " problems"));
    }
}
