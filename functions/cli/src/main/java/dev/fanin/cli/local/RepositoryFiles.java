package dev.fanin.cli.local;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where {@code template.yaml} and {@code events/} are: the working directory or a parent (running from a checkout),
 * else the parents of the CLI jar ({@code functions/cli/target/fanin-cli.jar}), so {@code ./fanin local} works from
 * any directory.
 */
public record RepositoryFiles(Path root) {

    public Path template() {
        return root.resolve("template.yaml");
    }

    Path events() {
        return root.resolve("events");
    }

    /** @throws IllegalStateException when neither the working directory nor the jar is inside a fanin checkout */
    public static RepositoryFiles locate() {
        return upwardsFrom(Path.of("").toAbsolutePath())
                .or(() -> codeLocation().flatMap(RepositoryFiles::upwardsFrom))
                .orElseThrow(() -> new IllegalStateException("fanin local needs the repository's template.yaml and events/:"
                        + " run it from the fanin checkout (./fanin local)"));
    }

    private static Optional<RepositoryFiles> upwardsFrom(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("template.yaml")) && Files.isDirectory(dir.resolve("events"))) {
                return Optional.of(new RepositoryFiles(dir));
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> codeLocation() {
        try {
            return Optional.of(Path.of(RepositoryFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
