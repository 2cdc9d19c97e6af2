package dev.fanin.cli.explain;

import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
import java.util.ArrayList;
import java.util.List;

/** 2. Every close trigger that applies, its exact condition, the precedence and the races. */
final class TriggerSection {

    private TriggerSection() {
    }

    static String render(PipelineConfig p) {
        WindowShape shape = WindowShape.of(p);
        String lifetime = Human.config(p.triggers().maxLifetime());
        StringBuilder md = new StringBuilder("### 2. Close triggers\n\n");
        md.append("Any trigger below closes a window. They are pure functions of the window, the watermark (event time) and "
                + "`now` (processing time), evaluated whenever an event reaches the window and at the window's next check. "
                + "In precedence order:\n\n");
        List<String> triggers = new ArrayList<>();
        ExpectedSpec expected = p.triggers().expected();
        SentinelSpec sentinel = p.triggers().sentinel();
        if (expected != null) {
            triggers.add("`EXPECTED_COMPLETE`: " + expectedCondition(expected) + ".");
        } else if (sentinel != null && sentinel.expectedCount() != null) {
            triggers.add("`EXPECTED_COMPLETE`: the sentinel (an event where " + Describe.condition(sentinel.when())
                    + ") carries the expected count in " + Describe.value(sentinel.expectedCount())
                    + ", and that many distinct events have arrived; the sentinel " + countsAsEvent(sentinel)
                    + ". The sentinel alone does not close the window: it only says how many to wait for.");
        }
        if (sentinel != null && sentinel.expectedCount() == null) {
            triggers.add("`SENTINEL`: an event where " + Describe.condition(sentinel.when())
                    + " arrives (the end-of-batch marker); it " + countsAsEvent(sentinel) + ".");
        }
        Integer count = p.triggers().count();
        if (count != null) {
            triggers.add("`COUNT`: the window holds " + count + " distinct events (" + (count - 1) + " no, " + count + " yes).");
        }
        triggers.add((shape.session() ? "`SESSION_GAP`" : "`WATERMARK`") + ": the watermark reaches the window's end, "
                + shape.end() + " (`watermark >= end`: end - 1ms no, end yes).");
        String continuation = " The session ends just after its last event, and the next on-time events open a session that "
                + "continues it (its aggregate's `continues` names the cut one).";
        triggers.add("`HARD_LIFETIME`: processing time reaches the window's creation + " + lifetime
                + " (`now >= hardDeadline`), whatever the events and the watermark do." + (shape.session() ? continuation : ""));
        if (p.bounds().onOverflow() == Bounds.Overflow.SPLIT) {
            triggers.add("`SIZE_LIMIT`: the revision holds " + p.bounds().maxEventsPerWindow() + " distinct events (`bounds.maxEventsPerWindow`)"
                    + (shape.session() ? "." + continuation : "; the revision closes and the window continues as the next revision."));
        }
        for (int i = 0; i < triggers.size(); i++) {
            md.append(i + 1).append(". ").append(triggers.get(i)).append('\n');
        }
        if (p.incomplete().mode() == IncompletePolicy.Mode.HOLD) {
            md.append("\nUnder `incomplete.policy: hold` the event-time trigger does not fire an incomplete window: it holds it (section 6), "
                    + "so only completeness or `HARD_LIFETIME` fires it.\n");
        }
        md.append("\n**When two race.** If several hold at the same decision, all are reported and the recorded reason is the first "
                + "in the list above (completeness > sentinel > count > watermark > session gap > hard lifetime > size limit). "
                + "Across invocations (an ingest batch, the window's timer and the sweep may decide at the same moment) exactly one "
                + "close is committed per window revision: each writes its claim conditional on the version it read, the first "
                + "wins, and the loser's write fails its condition, re-reads the window, finds it claimed and does nothing. "
                + "For this pipeline:\n\n");
        for (String race : races(p, shape)) {
            md.append("- ").append(race).append('\n');
        }
        md.append("\n**Every window closes.** Each window's next check is `min(hardDeadline, now + max(0, end - watermark))` in "
                + "processing time; a timer message is set to it, and a due bucket lists the window no later than it rounded up "
                + "to 10 s (a new window from when the ingest invocation that created it is surely over), so a window fires "
                + "within seconds of its condition, "
                + "and the scheduled sweep is the backstop, within a sweep period and 10 s of it. The hard deadline is finite (creation + ")
                .append(lifetime).append("), so every window has a due time.\n");
        return md.toString();
    }

    private static String expectedCondition(ExpectedSpec expected) {
        String n = expected.count() != null ? String.valueOf(expected.count()) : "n";
        String condition;
        if (expected.memberPath() != null) {
            int first = expected.firstMember();
            condition = "every member is seen: " + Describe.path(expected.memberPath()) + " has taken each value from " + first
                    + " to " + (first == 0 ? n + " - 1" : first + " + " + n + " - 1") + " (a repeated member counts once)";
        } else {
            condition = "the window holds " + n + " distinct events";
        }
        if (expected.count() == null) {
            condition += ", where n is read from " + Describe.path(expected.countPath()) + " on the events (the first value seen is "
                    + "kept; a different later value is counted as a conflict and ignored)";
        }
        return condition;
    }

    private static String countsAsEvent(SentinelSpec sentinel) {
        return sentinel.countsAsEvent() ? "counts as an event" : "is not itself counted as an event";
    }

    private static List<String> races(PipelineConfig p, WindowShape shape) {
        List<String> races = new ArrayList<>();
        String lifetime = Human.config(p.triggers().maxLifetime());
        String eventTimeReason = shape.session() ? "`SESSION_GAP`" : "`WATERMARK`";
        if (p.knowsCompleteness()) {
            races.add("The event that completes a window against the " + lifetime + " hard deadline: if completeness is claimed "
                    + "first the aggregate says `complete=true`; if `HARD_LIFETIME` is claimed first the window is handled by the "
                    + "incomplete-window policy (section 6), and the completing event arrives at a closed window, a late event (section 3).");
            races.add("Completeness and the event-time end at the same decision: completeness is recorded, and the aggregate is complete.");
        }
        if (p.triggers().count() != null) {
            races.add("`COUNT` and " + eventTimeReason + " at the same decision: `COUNT` is recorded.");
        }
        if (shape.session()) {
            races.add("A new event for the key against the " + eventTimeReason + " close: if the claim commits first, the event "
                    + "overlaps a fired session and is late for it (section 3), never bridged into a new batch with it; if the event "
                    + "commits first, it extends the session and the close is decided again.");
        } else {
            races.add("An event still in flight when the watermark passes the window end: the window fires without it and the event "
                    + "is late (section 3).");
        }
        races.add(eventTimeReason + " and `HARD_LIFETIME` at the same decision: " + eventTimeReason
                + " is recorded, so a window that reached its own end is never reported as cut short.");
        return races;
    }
}
