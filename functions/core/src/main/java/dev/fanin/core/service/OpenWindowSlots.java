package dev.fanin.core.service;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoreUnavailableException;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open-window bound ({@code bounds.maxOpenWindows}) for one invocation. A window takes a slot before it is
 * created and gives it back after the write that first closes (or merges) it; slots are reserved and returned in
 * bulk, one counter update per batch instead of a transaction per window.
 *
 * <p>Invariant: the slots the store counts are never fewer than the windows that hold one
 * ({@link WindowState#holdsSlot()}), so the bound is never passed: a slot is taken before the create and returned
 * after the close. A crash in between can only leave a slot taken; it returns when its epoch retires
 * ({@link AdmissionEpochs}), so until then the pipeline may refuse a little early, never admit too many.
 */
final class OpenWindowSlots {

    private static final Logger LOG = LoggerFactory.getLogger(OpenWindowSlots.class);

    private final FaninEngine engine;

    OpenWindowSlots(FaninEngine engine) {
        this.engine = engine;
    }

    /**
     * A slot for {@code window}, about to be created: one left over from this invocation's reservations, or a new
     * reservation of as many as the batch may still create ({@link Followups#creationsAhead}).
     *
     * @return false when the pipeline is at its bound
     */
    boolean take(WindowState window, Followups followups) {
        Bucket bucket = bucket(window);
        Integer unused = followups.unusedSlots.get(bucket);
        if (unused != null && unused > 0) {
            followups.unusedSlots.put(bucket, unused - 1);
            return true;
        }
        PipelineConfig config = engine.machine(bucket.pipeline()).config();
        int wanted = Math.max(1, followups.creationsAhead.getOrDefault(bucket.pipeline(), 1));
        int granted = engine.ports().store().reserveSlots(bucket.pipeline(), bucket.epoch(), wanted, config.bounds().maxOpenWindows());
        if (granted <= 0) {
            return false;
        }
        followups.unusedSlots.merge(bucket, granted - 1, Integer::sum);
        return true;
    }

    /** The slot taken for {@code window} was not used (its create lost a race): keep it for this invocation. */
    void unused(WindowState window, Followups followups) {
        followups.unusedSlots.merge(bucket(window), 1, Integer::sum);
    }

    /** {@code window} has just been closed or merged for the first time: its slot goes back at {@link #settle}. */
    void freed(WindowState window, Followups followups) {
        followups.freedSlots.merge(bucket(window), 1, Integer::sum);
    }

    /**
     * Returns the slots freed in this invocation and the reservations left unused, one update per pipeline and
     * epoch. Best effort: a slot not returned (the store is unavailable) comes back when its epoch retires.
     */
    void settle(Followups followups) {
        Map<Bucket, Integer> giveBack = new HashMap<>(followups.freedSlots);
        followups.unusedSlots.forEach((bucket, n) -> giveBack.merge(bucket, n, Integer::sum));
        followups.freedSlots.clear();
        followups.unusedSlots.clear();
        giveBack.forEach((bucket, n) -> {
            if (n <= 0) {
                return;
            }
            // A slot not returned stays counted until its epoch retires, making the pipeline refuse early. The SDK has
            // already retried a throttled release with backoff; another try here would only add to the throttling.
            try {
                engine.ports().store().releaseSlots(bucket.pipeline(), bucket.epoch(), n);
            } catch (StoreUnavailableException e) {
                LOG.warn("{} open-window slots of pipeline {} not returned ({}); they return when epoch {} retires",
                        n, bucket.pipeline(), e.getMessage(), bucket.epoch());
            }
        });
    }

    private Bucket bucket(WindowState window) {
        return new Bucket(window.ref().pipeline(), AdmissionEpochs.of(window.admitted().openedAt(), window.admitted().hardDeadline()));
    }

    /** Slots of one pipeline created in one admission epoch. */
    record Bucket(String pipeline, long epoch) { }
}
