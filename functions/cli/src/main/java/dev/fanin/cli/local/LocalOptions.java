package dev.fanin.cli.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The settings of one {@code fanin local} run.
 *
 * @param repository  where template.yaml and events/ are
 * @param events      the user's traffic (JSON Lines), or empty for the sample traffic
 * @param config      the pipelines file, or empty for the bundled one
 * @param sweepEvery  how often the sweeper runs locally
 * @param maxWait     when the run ends at the latest, counted from the first message sent
 * @param functionLog where the functions' JSON logs go
 */
record LocalOptions(RepositoryFiles repository, Optional<Path> events, Optional<Path> config, Duration sweepEvery,
                    Duration maxWait, Path functionLog) { }
