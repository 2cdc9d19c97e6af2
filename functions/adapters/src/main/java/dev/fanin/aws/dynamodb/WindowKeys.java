package dev.fanin.aws.dynamodb;

import dev.fanin.aws.StableHash;
import dev.fanin.core.window.WindowRef;
import java.util.regex.Pattern;

/**
 * The table's key scheme (docs/ARCHITECTURE.md, "Data model"). Group keys may contain any character, {@code #}
 * included; window ids and pipeline names never contain {@code #}. So a key is read back by stripping the fixed
 * {@code W#<pipeline>#} prefix (the pipeline is known to the reader), and a window id is everything before the
 * first {@code #} of a sort key.
 */
public final class WindowKeys {

    static final String HEAD_SUFFIX = "#H";
    static final String SLICE_INFIX = "#S#";
    static final int SLICE_DIGITS = 12;
    static final long MAX_SLICE = 999_999_999_999L;
    private static final Pattern PIPELINE = Pattern.compile("[a-z0-9-]+");

    private WindowKeys() { }

    public static String windowPk(String pipeline, String key) {
        return windowPkPrefix(pipeline) + key;
    }

    static String windowPkPrefix(String pipeline) {
        requirePipeline(pipeline);
        return "W#" + pipeline + "#";
    }

    public static String headSk(String windowId) {
        requireWindowId(windowId);
        return windowId + HEAD_SUFFIX;
    }

    /** The start of a session from the sort key of one of its items ({@code S<start>#...}), as its id names it. */
    public static long sessionStart(String sk) {
        return Long.parseLong(windowIdOf(sk).substring(1));
    }

    /**
     * A sort key just above a window's head ({@code <id>#H}) and below its slices ({@code <id>#S#...}), held by no item
     * ('I' follows 'H'): a descending query below it starts at the head.
     */
    public static String aboveHead(String windowId) {
        return headSk(windowId) + "I";
    }

    /**
     * A slice's sort key, its number zero-padded to {@link #SLICE_DIGITS} digits so that slices sort by number (a range
     * of them is one {@code Query}). Slices written before bounded loads have unpadded numbers; both parse.
     */
    public static String sliceSk(String windowId, long slice) {
        requireWindowId(windowId);
        if (slice < 0 || slice > MAX_SLICE) {
            throw new IllegalArgumentException("slice number must be in [0, " + MAX_SLICE + "], was " + slice);
        }
        return windowId + SLICE_INFIX + String.format(java.util.Locale.ROOT, "%0" + SLICE_DIGITS + "d", slice);
    }

    /** The sort-key prefix shared by a window's head and slices and by no other window's items. */
    static String windowSkPrefix(String windowId) {
        requireWindowId(windowId);
        return windowId + "#";
    }

    public static String counterPk(String pipeline) {
        requirePipeline(pipeline);
        return "C#" + pipeline;
    }

    public static String watermarkPk(String pipeline) {
        requirePipeline(pipeline);
        return "M#" + pipeline;
    }

    /** The partition of a pipeline's due buckets in one shard: {@code B#<pipeline>#<shard>}. */
    public static String dueBucketPk(String pipeline, int shard) {
        requirePipeline(pipeline);
        return "B#" + pipeline + "#" + shard;
    }

    /** Stable across JVMs: SHA-256 of key and window id (length-prefixed so that no two pairs collide as text). */
    public static int shardOf(WindowRef ref, int shards) {
        return StableHash.shard(ref.key().length() + ":" + ref.key() + ref.windowId(), shards);
    }

    /** The group key of a window partition key, knowing its pipeline. */
    static String keyOf(String pipeline, String pk) {
        String prefix = windowPkPrefix(pipeline);
        if (!pk.startsWith(prefix)) {
            throw new IllegalArgumentException("partition key " + pk + " is not a window of pipeline " + pipeline);
        }
        return pk.substring(prefix.length());
    }

    /** The pipeline of a window partition key ({@code W#<pipeline>#<key>}; pipeline names never contain {@code #}). */
    static String pipelineOf(String pk) {
        int end = pk.indexOf('#', 2);
        if (!pk.startsWith("W#") || end < 0) {
            throw new IllegalArgumentException("partition key " + pk + " is not a window's");
        }
        return pk.substring(2, end);
    }

    /** The window id of a window item's sort key: everything before its first {@code #}. */
    public static String windowIdOf(String sk) {
        int separator = sk.indexOf('#');
        if (separator <= 0) {
            throw new IllegalArgumentException("sort key " + sk + " is not a window item");
        }
        return sk.substring(0, separator);
    }

    public static boolean isHead(String sk) {
        return sk.endsWith(HEAD_SUFFIX) && sk.indexOf('#') == sk.length() - HEAD_SUFFIX.length();
    }

    /** The slice number of a slice sort key, or -1 when {@code sk} is not a slice. */
    static long sliceOf(String sk) {
        int infix = sk.indexOf(SLICE_INFIX);
        if (infix <= 0 || sk.indexOf('#') != infix) {
            return -1;
        }
        try {
            return Long.parseLong(sk.substring(sk.lastIndexOf('#') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void requirePipeline(String pipeline) {
        if (pipeline == null || !PIPELINE.matcher(pipeline).matches()) {
            throw new IllegalArgumentException("pipeline name must match [a-z0-9-]+, was " + pipeline);
        }
    }

    private static void requireWindowId(String windowId) {
        if (windowId == null || windowId.isEmpty() || windowId.indexOf('#') >= 0) {
            throw new IllegalArgumentException("window id must be non-empty and free of '#', was " + windowId);
        }
    }
}
