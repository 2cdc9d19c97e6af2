package dev.fanin.core.machine;

import java.time.Instant;
import java.util.Objects;

/**
 * The creation time and hard deadline a window's open-window slot was counted by (its admission epoch): a window's
 * own until a merge moves them to the earlier session's, so that the slot goes back to the epoch that counted it.
 */
public record Admitted(Instant openedAt, Instant hardDeadline) {

    public Admitted {
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(hardDeadline, "hardDeadline");
    }
}
