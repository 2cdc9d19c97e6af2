package dev.fanin.lambda;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.PipelineHistory;
import dev.fanin.core.port.StoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link PipelineHistory} true to the configuration in force, and finds the pipelines retired from it.
 *
 * <p>Before a function runs on a configuration, every pipeline of it is recorded with the document that defines it
 * and how long its windows may need a sweep: {@code maxLifetime + allowedLateness + late.correctionDelay + lease} from
 * now, plus {@link #MARGIN}, and recorded again once less than half the margin is left. So a pipeline later removed
 * or renamed is still known, under its last definition, until every window opened under it has closed: the sweeper
 * and the timer function keep deciding those windows ({@code FaninEngine#retired}) while intake gives them no new
 * events.
 *
 * <p>The functions running a pipeline also say so ({@link PipelineHistory#ran}) when the last such word is half a
 * {@code refresh} old, at each read of the history (every {@code refresh}; the sweeper runs every minute). A recorded
 * pipeline this configuration lacks is retired, but while some function still ran it within three {@code refresh}es
 * it is run elsewhere: during a deployment, a function on the configuration before a pipeline was added, or on the
 * one after it was removed while the functions of before still run it. Its windows are decided alike, and their
 * aggregates are not stamped retired.
 */
final class PipelineRetirement {

    /** Slack on top of the longest a window of a pipeline can stay open; also how rarely a record is renewed. */
    static final Duration MARGIN = Duration.ofDays(1);

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRetirement.class);

    /** The pipelines retired from a configuration, and those of them another function still runs. */
    record Retired(List<PipelineConfig> pipelines, Set<String> runElsewhere) {

        static final Retired NONE = new Retired(List.of(), Set.of());

        Retired {
            pipelines = List.copyOf(pipelines);
            runElsewhere = Set.copyOf(runElsewhere);
        }
    }

    private final PipelineHistory history;
    private final Duration lease;
    private final Duration refresh;
    /** Parsed documents of the history, by text (a document is immutable). */
    private final Map<String, Optional<FaninConfig>> parsed = new HashMap<>();
    /**
     * By pipeline, the latest time the history (as last read, with what this function recorded since) sweeps it until.
     * Read without the lock: every watermark write and ingest batch asks, while {@link #update} holds the lock across
     * its store calls.
     */
    private final Map<String, Instant> sweptUntil = new ConcurrentHashMap<>();

    /** @param refresh how often a function records the pipelines it runs again */
    PipelineRetirement(PipelineHistory history, Duration lease, Duration refresh) {
        this.history = Objects.requireNonNull(history, "history");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.refresh = Objects.requireNonNull(refresh, "refresh");
    }

    /**
     * Records what the configuration in force needs and returns the pipelines retired from it whose windows may still
     * be open.
     *
     * @throws StoreUnavailableException when a pipeline of {@code config} is not recorded yet and cannot be now: no
     *                                   window of it may be opened before it is
     */
    synchronized Retired update(FaninConfig config, String document, Instant now) {
        Map<String, PipelineHistory.Definition> recorded = new HashMap<>();
        history.recorded().forEach(d -> recorded.put(d.pipeline(), d));
        List<PipelineHistory.Definition> due = new ArrayList<>();
        for (PipelineConfig p : config.pipelines()) {
            Instant until = now.plus(horizon(p));
            PipelineHistory.Definition stored = recorded.get(p.name());
            if (stored == null || !stored.document().equals(document) || stored.sweepUntil().isBefore(until.minus(MARGIN.dividedBy(2)))) {
                due.add(new PipelineHistory.Definition(p.name(), document, until));
            }
        }
        sayRan(config, recorded, now);
        recorded.values().forEach(this::noteSweep);
        if (!due.isEmpty()) {
            try {
                history.record(due);
                due.forEach(this::noteSweep);
            } catch (StoreUnavailableException e) {
                if (due.stream().anyMatch(d -> !covers(recorded.get(d.pipeline()), d.sweepUntil()))) {
                    throw e;
                }
                LOG.warn("pipeline history not renewed now (it still covers the pipelines in force): {}", e.getMessage());
            }
        }
        return retired(config, recorded.values(), now);
    }

    /**
     * Whether {@code stored} already sweeps long enough for a window opened now under a definition wanted until
     * {@code wanted} (now plus its horizon, {@link #MARGIN} of slack included): then a failed renewal, or a
     * failed record of a new document with a horizon no longer, can wait for the next refresh. A longer one cannot: a
     * window opened under it before it is recorded could outlive the sweeps of a pipeline removed meanwhile.
     */
    private static boolean covers(PipelineHistory.Definition stored, Instant wanted) {
        return stored != null && covers(stored.sweepUntil(), wanted);
    }

    private static boolean covers(Instant sweptUntil, Instant wanted) {
        return !sweptUntil.isBefore(wanted.minus(MARGIN));
    }

    /**
     * Whether the history, as this function last read or recorded it, sweeps every pipeline of {@code config} long
     * enough for a window opened at {@code now}: a record whose renewals keep failing stops being so, and then no window
     * may be opened until one succeeds.
     */
    boolean sweepsLongEnough(FaninConfig config, Instant now) {
        return config.pipelines().stream().allMatch(p -> {
            Instant until = sweptUntil.get(p.name());
            return until != null && covers(until, now.plus(horizon(p)));
        });
    }

    /** Says that this function runs the pipelines of {@code config} whose last such word is half a refresh old. */
    private void sayRan(FaninConfig config, Map<String, PipelineHistory.Definition> recorded, Instant now) {
        List<String> stale = config.pipelines().stream().map(PipelineConfig::name)
                .filter(p -> recorded.get(p) == null || !recorded.get(p).ranAt().isAfter(now.minus(refresh.dividedBy(2)))).toList();
        if (stale.isEmpty()) {
            return;
        }
        try {
            history.ran(stale, now);
        } catch (StoreUnavailableException e) {
            LOG.warn("pipeline history: not said now that this function runs {}: {}", stale, e.getMessage());
        }
    }

    /**
     * The pipelines retired from {@code config} whose windows may still be open, as the history has them, recording
     * nothing: for an operator's command, which must not make its own configuration (perhaps a draft) the stack's.
     */
    synchronized Retired retired(FaninConfig config, Instant now) {
        Collection<PipelineHistory.Definition> recorded = history.recorded();
        recorded.forEach(this::noteSweep);
        return retired(config, recorded, now);
    }

    /**
     * The latest time the pipeline history sweeps {@code pipeline} until, as this function last read or recorded it:
     * its windows opened under any definition recorded, also one with a longer horizon than the one in force now, may
     * need their pipeline's state until then.
     */
    Optional<Instant> sweptUntil(String pipeline) {
        return Optional.ofNullable(sweptUntil.get(pipeline));
    }

    private void noteSweep(PipelineHistory.Definition d) {
        sweptUntil.merge(d.pipeline(), d.sweepUntil(), (a, b) -> a.isAfter(b) ? a : b);
    }

    private Retired retired(FaninConfig config, Collection<PipelineHistory.Definition> recorded, Instant now) {
        List<PipelineConfig> retired = new ArrayList<>();
        Set<String> runElsewhere = new HashSet<>();
        for (PipelineHistory.Definition d : recorded) {
            if (config.pipeline(d.pipeline()).isEmpty() && d.sweepUntil().isAfter(now)) {
                definition(d).ifPresent(retired::add);
                if (d.ranAt().isAfter(now.minus(refresh.multipliedBy(3)))) {
                    runElsewhere.add(d.pipeline());
                }
            }
        }
        retired.sort((a, b) -> a.name().compareTo(b.name()));
        return new Retired(retired, runElsewhere);
    }

    /** How long after its creation a window of {@code p} may still need a visit. */
    Duration horizon(PipelineConfig p) {
        return p.triggers().maxLifetime().plus(p.allowedLateness()).plus(p.late().correctionDelay()).plus(lease).plus(MARGIN);
    }

    private Optional<PipelineConfig> definition(PipelineHistory.Definition d) {
        Optional<FaninConfig> config = parsed.computeIfAbsent(d.document(), text -> {
            try {
                return Optional.of(ConfigLoader.loadRecorded(text, "the recorded definition of pipeline " + d.pipeline()));
            } catch (ConfigException e) {
                return Optional.empty();
            }
        });
        Optional<PipelineConfig> pipeline = config.flatMap(c -> c.pipeline(d.pipeline()));
        if (pipeline.isEmpty()) {
            LOG.error("pipeline {} was removed from the configuration but its recorded definition cannot be read; its open"
                    + " windows are not swept until it is configured again", d.pipeline());
        }
        return pipeline;
    }
}
