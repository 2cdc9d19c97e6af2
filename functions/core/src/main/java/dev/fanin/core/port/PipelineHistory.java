package dev.fanin.core.port;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The pipeline definitions that windows in the store may have been opened under, kept in the store so that a window
 * outlives the removal or renaming of its pipeline. Invariant: a pipeline is recorded, with a {@code sweepUntil}
 * later than any close of a window opened under it can come, before a window of it is written; so whatever
 * configuration is in force later, every pipeline with windows left to close is either configured or recorded.
 */
public interface PipelineHistory {

    /**
     * One pipeline's last definition.
     *
     * @param pipeline   its name
     * @param document   the configuration document (YAML) that defines it
     * @param sweepUntil until when windows of it may be open, correcting or claimed: until then it is swept
     * @param ranAt      when a function running it last said so ({@link #ran}; {@link Instant#EPOCH} for none), as read:
     *                   {@link #record} does not write it
     */
    record Definition(String pipeline, String document, Instant sweepUntil, Instant ranAt) {
        public Definition {
            Objects.requireNonNull(pipeline, "pipeline");
            Objects.requireNonNull(document, "document");
            Objects.requireNonNull(sweepUntil, "sweepUntil");
            Objects.requireNonNull(ranAt, "ranAt");
        }

        public Definition(String pipeline, String document, Instant sweepUntil) {
            this(pipeline, document, sweepUntil, Instant.EPOCH);
        }
    }

    /**
     * Records each definition: its document replaces the one stored for that pipeline, its {@code sweepUntil} replaces
     * an earlier one (never a later one).
     *
     * @throws StoreUnavailableException when the store cannot take it now
     */
    void record(List<Definition> definitions);

    /**
     * Records that a function running {@code pipelines} ran them at {@code at}: a small write per pipeline, which the
     * functions repeat every half minute or so, apart from the definitions (a document is kilobytes, each write of it
     * as many write units).
     *
     * @throws StoreUnavailableException when the store cannot take it now
     */
    void ran(List<String> pipelines, Instant at);

    /** Every recorded definition, expired ones included, each with when a function last ran it. */
    List<Definition> recorded();
}
