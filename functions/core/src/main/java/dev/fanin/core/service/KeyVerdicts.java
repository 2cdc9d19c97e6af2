package dev.fanin.core.service;

import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.event.Event;
import dev.fanin.core.machine.EventOutcome;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.port.LiveSessions;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The too-late verdicts a session key keeps in its live item ({@link LiveSessions#tooLate}): those of events no session
 * holds, which a later copy of the event, planned by its time, would not meet in any session (docs/SEMANTICS.md,
 * "Lateness"). Every copy of such an event is too late, wherever its time would take it now.
 */
final class KeyVerdicts {

    private static final Logger LOG = LoggerFactory.getLogger(KeyVerdicts.class);

    private KeyVerdicts() {
    }

    /** The events left once those whose verdict {@code live} keeps, and has not forgotten, are reported too late again. */
    static List<Event> withoutCopies(List<Event> events, LiveSessions live, IngestBatch batch, long watermark) {
        if (live.tooLate().isEmpty()) {
            return events;
        }
        List<Event> left = new ArrayList<>();
        for (Event e : events) {
            Instant forgetAt = live.tooLate().get(EventIdDigest.tooLate(EventIdDigest.of(e.eventId())));
            if (forgetAt != null && forgetAt.isAfter(batch.now)) {
                WindowRef ref = new WindowRef(live.pipeline(), live.key(), WindowRef.sessionId(e.eventTime().toEpochMilli()));
                batch.record(List.of(EventOutcome.tooLateAgain(e)), ref, watermark);
            } else {
                left.add(e);
            }
        }
        return left;
    }

    /**
     * Records in the key's live {@code change} the too-late verdicts of {@code outcomes} that no session keeps
     * ({@link EventOutcome.Verdict#UNKEPT}, and those its session records when that is not {@code written}): of an
     * event that would have opened a session, extended one or bridged two. Each is kept as long as a session opened
     * now would live. Returns those outcomes: they are reported once the change is written.
     */
    static List<EventOutcome> keep(List<EventOutcome> outcomes, boolean written, LiveChange change, WindowMachine machine,
                                   IngestBatch batch) {
        List<EventOutcome> kept = outcomes.stream().filter(o -> o.verdict() == EventOutcome.Verdict.UNKEPT
                || (!written && o.verdict() == EventOutcome.Verdict.RECORDED)).toList();
        Instant forgetAt = machine.expiryOfWindowOpenedAt(batch.now);
        int dropped = 0;
        for (EventOutcome o : kept) {
            dropped += change.recordTooLate(EventIdDigest.tooLate(EventIdDigest.of(o.event().eventId())), forgetAt);
        }
        if (dropped > 0) {
            String pipeline = machine.config().name();
            batch.engine.ports().metrics().record(MetricNames.TOO_LATE_VERDICTS_DROPPED, dropped, Metrics.Unit.COUNT,
                    Map.of("pipeline", pipeline));
            WindowLog.warn(LOG, WindowRef.wholeKey(pipeline, change.loaded().key()), "too-late verdicts let go before their time: a "
                    + "later copy of such an event may be counted", Map.of("dropped", dropped, "maxVerdicts", LiveSessions.MAX_TOO_LATE));
        }
        return kept;
    }
}
