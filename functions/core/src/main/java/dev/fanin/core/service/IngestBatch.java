package dev.fanin.core.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.machine.EventOutcome;
import dev.fanin.core.machine.TimerChain;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.Visitor;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one ingest invocation has done so far, shared by the ingest of time windows and of sessions: the follow-ups of
 * its writes, and per message whether it failed (so its input redelivers it) and why. Also where an event's outcome turns
 * into counts, metrics and side-output records.
 */
final class IngestBatch {

    private static final Logger LOG = LoggerFactory.getLogger(IngestBatch.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    final FaninEngine engine;
    /**
     * When the batch started: the time its messages were received at, which its watermark and its queue evidence (how
     * far behind their sending the messages arrived) are taken at, for every pipeline of the batch alike.
     */
    final Instant start;
    /**
     * The time the batch's windows are decided at: its start, then the start of each window's (or session key's) step
     * and of each retry of a step after a lost write ({@link #startStep}), so that what a step derives from it (a claim's lease, a new window's deadline) counts from
     * when it is written, however long the batch has been running.
     */
    Instant now;
    /** When the batch stops applying events: what is left then is handed back for redelivery ({@link #outOfTime}). */
    private final Instant deadline;
    private boolean overran;
    final Followups followups = new Followups();
    final Set<String> failed = new HashSet<>();
    /**
     * Events handed back for a reason other than the open-window bound ({@link #refuse}): the windows they wait to
     * join exist, so their messages count as arrivals (the idle advance must not close those windows under them).
     */
    final Set<Event> handedBack = new HashSet<>();
    final Map<String, String> failureReasons = new HashMap<>();
    final Set<String> deadLetteredIds = new HashSet<>();
    int accepted;
    int duplicates;
    int late;
    int tooLate;
    int deadLettered;
    int ignored;

    IngestBatch(FaninEngine engine, Instant start, Instant deadline) {
        this.engine = engine;
        this.start = start;
        this.now = start;
        this.deadline = deadline;
    }

    /** A window's or session key's step, or its retry, starts: it decides at the current time. */
    void startStep() {
        now = engine.clock().instant();
    }

    /**
     * Whether the invocation's time for applying events is up at the step's start ({@link #startStep}). Then
     * {@code events} fail, to be redelivered with the reason (dead-lettered with it on their last delivery) instead of
     * being lost with the invocation to a timeout, which SQS's redrive would dead-letter without one.
     */
    boolean outOfTime(List<Event> events) {
        if (now.isBefore(deadline)) {
            return false;
        }
        overran();
        fail(events, "INGEST_DEADLINE: not applied before the ingest invocation's time ran out (IngestTimeout too short for "
                + "the batch: raise it, or lower IngestBatchSize)");
        return true;
    }

    private void overran() {
        if (!overran) {
            overran = true;
            LOG.warn("ingest ran out of time before the end of its batch: the rest is handed back for redelivery; a batch "
                    + "that keeps doing this needs a longer IngestTimeout or a smaller IngestBatchSize");
        }
    }

    /** Counts and reports what the machine did with each event offered to {@code ref}. */
    void record(List<EventOutcome> outcomes, WindowRef ref, long watermark) {
        Metrics metrics = engine.ports().metrics();
        String pipeline = ref.pipeline();
        for (EventOutcome o : outcomes) {
            Event e = o.event();
            switch (o.disposition()) {
                case ACCEPTED -> accepted++;
                case ACCEPTED_LATE, CORRECTION -> {
                    accepted++;
                    late++;
                    lateMetric(pipeline, o.disposition() == EventOutcome.Disposition.CORRECTION ? "correction" : "folded");
                }
                case DUPLICATE -> {
                    duplicates++;
                    metrics.count(MetricNames.DUPLICATE_EVENTS, pipeline);
                    if (LOG.isDebugEnabled()) {
                        WindowLog.debug(LOG, ref, "duplicate event suppressed", Map.of("eventId", e.eventId(), "messageId", e.sourceMessageId()));
                    }
                }
                case TOO_LATE -> tooLate(o, ref, watermark);
                case WINDOW_FULL -> sideOutput(SideRecord.WINDOW_FULL, "window " + ref.windowId() + " already holds bounds.maxEventsPerWindow="
                        + config(pipeline).bounds().maxEventsPerWindow() + " events (bounds.onOverflow: side-output)", e, ref, watermark);
                case RETRY -> fail(List.of(e), "SIZE_LIMIT_SPLIT: window " + ref.windowId() + " is full (bounds.maxEventsPerWindow="
                        + config(pipeline).bounds().maxEventsPerWindow() + " events) until the emission of its full revision commits");
                default -> throw new IllegalStateException("unhandled disposition " + o.disposition());
            }
        }
        long counted = outcomes.stream().filter(o -> o.disposition().counted()).count();
        if (counted > 0) {
            metrics.record(MetricNames.EVENTS_ACCEPTED, counted, Metrics.Unit.COUNT, Map.of("pipeline", pipeline));
        }
    }

    private void tooLate(EventOutcome o, WindowRef ref, long watermark) {
        tooLate++;
        Event e = o.event();
        if (config(ref.pipeline()).late().tooLate() == LatePolicy.TooLate.DROP) {
            lateMetric(ref.pipeline(), "dropped");
            WindowLog.info(LOG, ref, "too-late event dropped (late.tooLate: drop)", Map.of("eventId", e.eventId(),
                    "messageId", e.sourceMessageId(), "eventTime", e.eventTime(), "reason", String.valueOf(o.detail())));
        } else {
            lateMetric(ref.pipeline(), "side-output");
            sideOutput(SideRecord.TOO_LATE, o.detail(), e, ref, watermark);
        }
    }

    private PipelineConfig config(String pipeline) {
        return engine.machine(pipeline).config();
    }

    private void lateMetric(String pipeline, String disposition) {
        engine.ports().metrics().record(MetricNames.LATE_EVENTS, 1, Metrics.Unit.COUNT, Map.of("pipeline", pipeline, "disposition", disposition));
    }

    /** The side output's records: their {@code kind} and {@code reasonCode}. */
    private enum SideRecord {
        WINDOW_FULL("WINDOW_FULL", "WINDOW_FULL"),
        TOO_LATE("LATE_EVENT", "TOO_LATE");

        final String kind;
        final String code;

        SideRecord(String kind, String code) {
            this.kind = kind;
            this.code = code;
        }
    }

    private void sideOutput(SideRecord record, String detail, Event e, WindowRef ref, long watermark) {
        String kind = record.kind;
        String code = record.code;
        String reason = code + ": " + detail;
        ObjectNode json = JSON.createObjectNode();
        json.put("kind", kind);
        json.put("reasonCode", code);
        json.put("reason", reason);
        json.put("pipeline", ref.pipeline());
        json.put("key", ref.key());
        json.put("windowId", ref.windowId());
        json.put("eventId", e.eventId());
        json.put("eventTime", IsoMillis.format(e.eventTime()));
        json.put("watermark", watermark == Long.MIN_VALUE ? null : IsoMillis.format(watermark));
        json.put("sourceMessageId", e.sourceMessageId());
        json.set("event", e.payload());
        WindowLog.info(LOG, ref, "event sent to the side output", Map.of("eventId", e.eventId(), "messageId", e.sourceMessageId(),
                "kind", kind, "reason", reason));
        try {
            engine.ports().sideOutput().send(kind, ref.pipeline(), ExactJson.write(json));
        } catch (RuntimeException ex) {
            fail(List.of(e), "side output unavailable: " + ex.getMessage());
        }
    }

    /** A new window refused for want of an open-window slot: its messages are handed back, to be delivered again. */
    void refuse(WindowRef ref, List<Event> events) {
        engine.ports().metrics().count(MetricNames.ADMISSION_REFUSED, ref.pipeline());
        WindowLog.warn(LOG, ref, "new window refused: the pipeline is at bounds.maxOpenWindows; the messages are retried",
                Map.of("maxOpenWindows", config(ref.pipeline()).bounds().maxOpenWindows()));
        markFailed(events, "OPEN_WINDOW_BOUND: pipeline " + ref.pipeline() + " holds bounds.maxOpenWindows="
                + config(ref.pipeline()).bounds().maxOpenWindows() + " open windows; window " + ref.windowId() + " waits for one to close");
    }

    /** The messages of {@code events} failed: their input redelivers them; the first reason is kept for a last delivery. */
    void fail(List<Event> events, String reason) {
        handedBack.addAll(events);
        markFailed(events, reason);
    }

    private void markFailed(List<Event> events, String reason) {
        for (Event e : events) {
            failed.add(e.sourceMessageId());
            failureReasons.putIfAbsent(e.sourceMessageId(), reason);
        }
    }

    /**
     * A redelivered message that changed nothing in {@code state} may follow a crash between its first delivery's
     * write and the timer send, which would leave the window to the sweeper: the window's live chain gets its next
     * message, as if the chain's own message had come. If the chain was not lost, it now has two copies, which cost a
     * read per hop until the window closes, like a duplicate delivery. A window due now is left to its other visitors.
     */
    void rearmAfterRedelivery(WindowMachine machine, WindowState state, List<Event> events, long watermark) {
        TimerChain chain = state.timer();
        if (chain == null || events.stream().noneMatch(e -> followups.redeliveredMessages.contains(e.sourceMessageId()))) {
            return;
        }
        Transition t = machine.tick(state, watermark, now, Visitor.timer(chain.id(), chain.armedFor()));
        if (!t.write() && t.armsTimer()) {
            followups.timers.add(WindowWrites.wakeup(t));
            engine.ports().metrics().count(MetricNames.TIMERS_REARMED_ON_REDELIVERY, state.ref().pipeline());
        }
    }

    /**
     * Sends {@code m} to the dead-letter path with its reason's machine-readable {@code code} and text; a failed send
     * fails the message instead.
     *
     * @return whether it was sent
     */
    boolean deadLetter(InboundMessage m, String code, String reason, String pipeline) {
        if (!engine.clock().instant().isBefore(deadline) && m.attempt() < engine.settings().maxReceiveCount()) {
            // Out of time: handed back, dead-lettered by a later delivery (on its last one, sent whatever the time, so
            // that its reason goes with it: the redrive policy would carry none).
            overran();
            failed.add(m.messageId());
            failureReasons.putIfAbsent(m.messageId(), "INGEST_DEADLINE: not dead-lettered (" + code + ") before the ingest"
                    + " invocation's time ran out (IngestTimeout too short for the batch: raise it, or lower IngestBatchSize)");
            return false;
        }
        try {
            engine.ports().deadLetters().send(m.originalMessageId(), m.body(), m.attributes(), code, reason);
            deadLettered++;
            deadLetteredIds.add(m.messageId());
            engine.ports().metrics().count(MetricNames.DEAD_LETTERED, pipeline == null ? "none" : pipeline);
            // Both ids: the delivery's, and the one the dead letter carries (`fanin dead-letters show` prints it).
            org.slf4j.MDC.put("messageId", m.messageId());
            org.slf4j.MDC.put("originalMessageId", m.originalMessageId());
            LOG.warn("message dead-lettered: {}", reason);
            org.slf4j.MDC.remove("messageId");
            org.slf4j.MDC.remove("originalMessageId");
            return true;
        } catch (RuntimeException e) {
            // Not lost: its input redelivers it and, past maxReceiveCount, dead-letters it (SQS: the redrive policy),
            // without fanin's reason if the send keeps failing (a body too close to the queue's size limit to carry
            // it): so the reason is logged here.
            failed.add(m.messageId());
            failureReasons.putIfAbsent(m.messageId(), "its dead letter could not be sent: " + e.getMessage());
            LOG.warn("dead-lettering message {} failed, it will be redelivered: {}; it was to be dead-lettered for {}: {}", m.messageId(),
                    e.getMessage(), code, reason);
            return false;
        }
    }
}
