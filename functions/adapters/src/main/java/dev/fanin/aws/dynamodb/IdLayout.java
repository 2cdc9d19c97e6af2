package dev.fanin.aws.dynamodb;

import java.util.Set;

/**
 * How a loaded window's event ids are laid out in the table: the ids sealed in slice items that the load knows of
 * (read now or held by the container's {@link SliceCache}; a slice is never changed once written) and the newest
 * such slice's number. Opaque to the core, which copies it from the loaded window to the next one; {@code null} (a
 * window never stored) is read as {@link #EMPTY}.
 *
 * <p>A head write stores {@code eventIds} minus {@link #sealedIds()}, and {@link #newestSlice()} as the head's
 * {@code sn}: every id is then on the head or in a slice numbered at most {@code sn} (docs/ARCHITECTURE.md, "Bounded
 * loads"). An id the layout does not know to be sealed stays on the head, so it can be in both places, never in
 * neither.
 *
 * <p>A caller that writes twice from one load (claim, then commit) passes the pre-spill layout the second time: that
 * write repeats on the head the ids the first write's spill sealed, and its own spill seals them again in a slice of
 * its own version. Both are harmless: an id in two slices is still one id.
 *
 * @param legacy the window was stored before bounded loads (no {@code sn} on its head): it is loaded, and written,
 *               as then, with every slice read at every load
 */
public record IdLayout(Set<String> sealedIds, long newestSlice, boolean legacy) {

    public static final IdLayout EMPTY = new IdLayout(Set.of(), 0, false);

    public IdLayout {
        sealedIds = Set.copyOf(sealedIds);
        if (newestSlice < 0) {
            throw new IllegalArgumentException("newestSlice must not be negative, was " + newestSlice);
        }
    }

    static IdLayout of(Object layout) {
        if (layout == null) {
            return EMPTY;
        }
        if (layout instanceof IdLayout idLayout) {
            return idLayout;
        }
        throw new IllegalArgumentException("layout " + layout.getClass().getName()
                + " was not produced by DynamoDbWindowStore; pass the loaded window's layout on unchanged");
    }
}
