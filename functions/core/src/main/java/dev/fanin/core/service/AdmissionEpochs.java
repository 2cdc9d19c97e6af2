package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * Admission epochs: the open-window slots a pipeline holds are counted per epoch of window creation (processing
 * time), so that slots a crash leaves behind can be returned without a recount. A window's epoch is one of its own
 * lifetime (its hard deadline less its creation, at least a minute): every window created in epoch {@code e} of
 * length {@code L} is closed by its hard deadline, before {@code (e + 2) L}, plus one sweep period and one lease; so
 * once {@link #RETIRE_MARGIN} more has passed, any slot the epoch still holds belongs to no open window and is
 * returned.
 *
 * <p>An epoch is named by that retirement time, in minutes since 1970, not by its number: a number means a time only
 * with the lifetime it was counted in, and a {@code maxLifetime} changed while windows are open would otherwise send
 * their releases to another epoch and leave their own counted for good. Both the reservation and the release name
 * the epoch from the window's own creation and hard deadline, which never change for its slot (a merge, which moves a
 * survivor's to the earlier session's, keeps the ones its slot was counted by: {@code WindowState#admitted}), and the sweeper retires an epoch
 * by its name alone, whatever the configuration says now. Epochs of different lifetimes that retire in the same
 * minute share a name, as their slots share a retirement.
 */
public final class AdmissionEpochs {

    /** Time after the last possible hard deadline of an epoch's windows before the epoch retires; covers sweep periods and leases. */
    public static final Duration RETIRE_MARGIN = Duration.ofHours(1);

    private static final Duration SHORTEST = Duration.ofMinutes(1);
    private static final long MINUTE = SHORTEST.toMillis();

    private AdmissionEpochs() {
    }

    /** The epoch length of a pipeline's new windows: its maxLifetime, at least one minute. */
    public static Duration length(PipelineConfig pipeline) {
        return atLeastAMinute(pipeline.triggers().maxLifetime());
    }

    /**
     * The epoch of a window created at {@code openedAt} with hard deadline {@code hardDeadline}: the minute from which
     * it may be retired.
     */
    public static long of(Instant openedAt, Instant hardDeadline) {
        long length = atLeastAMinute(Duration.between(openedAt, hardDeadline)).toMillis();
        long lastDeadline = (Math.floorDiv(openedAt.toEpochMilli(), length) + 2) * length;
        return Math.floorDiv(lastDeadline + RETIRE_MARGIN.toMillis() + MINUTE - 1, MINUTE);
    }

    /** Epochs before this one may be retired at processing time {@code now}. */
    public static long retirableBefore(Instant now) {
        return Math.floorDiv(now.toEpochMilli(), MINUTE) + 1;
    }

    private static Duration atLeastAMinute(Duration lifetime) {
        return lifetime.compareTo(SHORTEST) < 0 ? SHORTEST : lifetime;
    }
}
