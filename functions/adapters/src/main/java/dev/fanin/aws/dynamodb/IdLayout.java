package dev.fanin.aws.dynamodb;

import java.util.Set;

/**
 * How a loaded window's event ids are laid out in the table: the ids sealed in slice items (never removed from
 * there) and the number the next slice will get. Opaque to the core, which copies it from the loaded window to the
 * next one; {@code null} (a window never stored) is read as {@link #EMPTY}.
 *
 * <p>A head write stores {@code eventIds} minus {@link #sealedIds()}: ids this layout knows to be sealed need not
 * be repeated on the head, and any id it does not know about stays on the head. So an id can be in both places,
 * never in neither.
 *
 * <p>A caller that writes twice from one load (claim, then commit) passes the pre-spill layout the second time:
 * that write repeats on the head the ids the first write's spill sealed, and its own spill finds the slice number
 * taken and skips. Both are harmless; the next load's layout drops the repeats from the head again.
 */
public record IdLayout(Set<String> sealedIds, int nextSlice) {

    public static final IdLayout EMPTY = new IdLayout(Set.of(), 0);

    public IdLayout {
        sealedIds = Set.copyOf(sealedIds);
        if (nextSlice < 0) {
            throw new IllegalArgumentException("nextSlice must not be negative, was " + nextSlice);
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
