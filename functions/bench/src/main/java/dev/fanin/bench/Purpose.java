package dev.fanin.bench;

/**
 * What a DynamoDB call was made for, as the metered stores and the baselines tag it: the line items of the bill. The
 * function that made the call ({@link DynamoDbBill#function}) completes a line: a window load made by the ingest is
 * the price of a batch, the same load made by a timer visit the price of closing within seconds.
 */
enum Purpose {
    /** Nothing said what the call was for: a run of the metered stores never leaves one (a test holds it). */
    UNTAGGED("untagged"),

    // fanin: windows and sessions
    WINDOW_EVENTS("window writes (create, events)"),
    LIVE_EVENTS("live item writes (create, events)"),
    SESSION_MERGE("session merges"),
    CLAIM("claims (first revision)"),
    COMMIT("commits (first revision)"),
    COMMITTED_HEAD("committed session heads"),
    LIVE_REMOVAL("removals from the live item"),
    CORRECTION("claims and commits of later revisions (corrections)"),
    /** A write that counts nothing and records too-late verdicts, so that no copy of those events is counted later. */
    TOO_LATE_RECORD("too-late verdicts recorded (corrections)"),
    SLICE_SPILL("id slices sealed (spills)"),
    HEAD_LOAD("window head loads"),
    LIVE_LOAD("live item loads"),
    /**
     * A timer or sweep visit's {@code GetItem} of the window or live item it then claims for a first revision: fanin's
     * way of building the claim, booked with the design's work though the design's flush reads nothing
     * ({@link ClaimLoads}).
     */
    CLAIM_LOAD("loads before a first claim"),
    SLICE_LOAD("slice range queries"),
    COMMITTED_QUERY("committed-session queries"),

    // fanin: fixed mechanisms
    DUE_PUT("due bucket puts"),
    DUE_QUERY("due bucket listing queries"),
    DUE_DELETE("due bucket deletes"),
    COUNTER_WRITE("open-window counter updates"),
    COUNTER_READ("open-window counter reads"),
    WATERMARK_WRITE("watermark writes"),
    WATERMARK_READ("watermark reads"),
    HISTORY_READ("pipeline history reads (two Queries a container a minute)"),
    HISTORY_RAN("pipeline history: ran items"),
    HISTORY_RECORD("pipeline history: definitions recorded again"),

    // the baselines
    DEDUPE_PUT("dedupe puts, one per event"),
    WINDOW_UPDATE("window updates, one per new event"),
    BATCH_UPDATE("conditional updates, one per batch and window (refused ones included)"),
    SESSION_LOOKUP("session lookups by event time, one Query per batch and session"),
    FLUSH_READ("flush reads"),
    FLUSH_WRITE("flush writes");

    private final String label;

    Purpose(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
