package dev.fanin.bench;

/**
 * What a line of fanin's bill buys that the competent design ({@link CompetentBaseline}) does not have, or
 * {@link #CORE} for what both do: take a batch's events, dedupe them, aggregate, flush each window once. Subtracting
 * every other guarantee's lines from fanin's total leaves what fanin pays for the competent design's work.
 */
enum Guarantee {
    CORE("the competent design's work", "take the events, dedupe, aggregate, flush once"),
    TIMERS("close within seconds",
            "timer messages and their visits: a window fires within seconds of its condition, no cron scanning the table"),
    SWEEPER("every window closes",
            "due buckets and the sweeper: a window closes when its timer is lost"),
    WATERMARK("close by event time",
            "the watermark: windows close by event time across invocations, and an idle pipeline still closes them"),
    OPEN_BOUND("bounded open windows",
            "the open-window counter: admission control under `bounds.maxOpenWindows`"),
    EXACTLY_ONCE("exactly-once flush",
            "the commit after the emission (for a session, its committed head): a crash or redelivery never fires a revision "
                    + "twice or loses one"),
    ONE_VIEW_PER_KEY("sessions safe under racing invocations",
            "a key's open sessions in one item, written under its version, so two invocations on one key never both create or "
                    + "extend a session from one view and count an event twice; a committed session then leaves that item, a "
                    + "second write"),
    CORRECTIONS("corrections",
            "late events within lateness correct the flushed aggregate: a later revision's claim, commit and event, and the "
                    + "wait on the PutEvents calls only they take; events past lateness go to the side output"),
    MERGES("session merges", "sessions bridged by an event merge into one"),
    RETIREMENT("retired pipelines close",
            "the pipeline history: every container reads it each minute and says which pipelines it runs, and each "
                    + "definition is recorded again every 12 h, so a removed or renamed pipeline's open windows still close under "
                    + "its last definition"),
    KEPT_ASIDE("nothing dropped silently",
            "a full window's overflow, a dead-lettered window and an input message fanin cannot process go to a queue with "
                    + "their reason");

    private final String title;
    private final String description;

    Guarantee(String title, String description) {
        this.title = title;
        this.description = description;
    }

    String title() {
        return title;
    }

    String description() {
        return description;
    }
}
