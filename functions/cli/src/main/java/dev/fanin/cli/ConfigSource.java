package dev.fanin.cli;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.ConfigProblem;
import dev.fanin.core.config.FaninConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The configuration a command reads: {@code --config FILE}, or the one bundled in the jar. A picocli mixin shared by
 * validate and explain so that both report a broken file identically.
 */
public final class ConfigSource {

    @Option(names = "--config", paramLabel = "FILE",
            description = "the pipelines YAML file (default: the bundled classpath:" + ConfigLoader.BUNDLED_RESOURCE + ")")
    private Path file;

    /** @throws UsageException when {@code --config} was given an empty name */
    void check() throws UsageException {
        if (file != null && file.toString().isBlank()) {
            throw new UsageException("--config needs a file name: --config FILE");
        }
    }

    boolean isBundled() {
        return file == null;
    }

    /** Where the configuration comes from, as the loader names it. */
    String origin() {
        return file == null ? "classpath:" + ConfigLoader.BUNDLED_RESOURCE : file.toString();
    }

    /** @throws ConfigException listing every problem */
    FaninConfig load() {
        return file == null ? ConfigLoader.loadBundled() : ConfigLoader.load(file);
    }

    /** Every problem, one line each exactly as {@link ConfigProblem#toString()}, then the count. */
    public static void printProblems(ConfigException rejected, PrintStream to) {
        for (ConfigProblem problem : rejected.problems()) {
            to.println(problem);
        }
        int count = rejected.problems().size();
        to.println(count + (count == 1 ? " problem" : " problems"));
    }
}
