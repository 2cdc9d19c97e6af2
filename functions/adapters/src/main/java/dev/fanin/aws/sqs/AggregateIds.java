package dev.fanin.aws.sqs;

/**
 * Reads the group key back out of an aggregate id, whose format is fixed by
 * {@link dev.fanin.core.window.WindowRef#aggregateId(int)}:
 * {@code <len>:<pipeline>/<len>:<key>/<windowId>/r<revision>}, lengths in chars.
 */
final class AggregateIds {

    private AggregateIds() { }

    /** The key, or null when {@code aggregateId} is not in that format. */
    static String key(String aggregateId) {
        try {
            int pipelineEnd = lengthPrefixedEnd(aggregateId, 0);
            if (pipelineEnd < 0 || aggregateId.charAt(pipelineEnd) != '/') {
                return null;
            }
            int keyStart = pipelineEnd + 1;
            int keyEnd = lengthPrefixedEnd(aggregateId, keyStart);
            if (keyEnd < 0 || aggregateId.charAt(keyEnd) != '/') {
                return null;
            }
            return aggregateId.substring(aggregateId.indexOf(':', keyStart) + 1, keyEnd);
        } catch (RuntimeException notTheFormat) {
            return null;
        }
    }

    /** For {@code <len>:<text>} starting at {@code from}, the index just after the text; -1 when malformed. */
    private static int lengthPrefixedEnd(String id, int from) {
        int colon = id.indexOf(':', from);
        if (colon <= from) {
            return -1;
        }
        int length = Integer.parseInt(id.substring(from, colon));
        int end = colon + 1 + length;
        return length < 0 || end >= id.length() ? -1 : end;
    }
}
