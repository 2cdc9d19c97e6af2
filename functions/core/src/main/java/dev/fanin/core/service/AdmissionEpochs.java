package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * Admission epochs: the open-window slots a pipeline holds are counted per epoch of window creation (processing
 * time), so that slots a crash leaves behind can be returned without a recount. An epoch is one {@code maxLifetime}
 * long (at least a minute). Every window created in epoch {@code e} is closed by its hard deadline, before the end of
 * epoch {@code e + 1}, plus one sweep period and one lease; so once {@link #RETIRE_MARGIN} more has passed, any slot
 * epoch {@code e} still holds belongs to no open window and is returned.
 */
public final class AdmissionEpochs {

    /** Time after the last possible hard deadline of an epoch's windows before the epoch retires; covers sweep periods and leases. */
    public static final Duration RETIRE_MARGIN = Duration.ofHours(1);

    private static final Duration SHORTEST = Duration.ofMinutes(1);

    private AdmissionEpochs() {
    }

    /** The epoch length of a pipeline: its maxLifetime, at least one minute. */
    public static Duration length(PipelineConfig pipeline) {
        Duration lifetime = pipeline.triggers().maxLifetime();
        return lifetime.compareTo(SHORTEST) < 0 ? SHORTEST : lifetime;
    }

    /** The epoch a window created (opened) at {@code openedAt} belongs to. */
    public static long of(Instant openedAt, PipelineConfig pipeline) {
        return Math.floorDiv(openedAt.toEpochMilli(), length(pipeline).toMillis());
    }

    /** Epochs before this one may be retired at processing time {@code now}. */
    public static long retirableBefore(Instant now, PipelineConfig pipeline) {
        return of(now.minus(length(pipeline)).minus(RETIRE_MARGIN), pipeline);
    }
}
