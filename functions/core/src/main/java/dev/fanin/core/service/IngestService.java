package dev.fanin.core.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.config.LatePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.emit.IsoMillis;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.IntakeResult;
import dev.fanin.core.intake.Rejected;
import dev.fanin.core.machine.EventOutcome;
import dev.fanin.core.machine.TimerChain;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WriteOutcome;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.watermark.QueueEvidence;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.SessionPlan;
import dev.fanin.core.window.SessionPlanner;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowAssigner;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one SQS batch: intake, then per window one load, one decision and one conditional write for all of the
 * batch's events in that window (coalescing), then the immediate flush of any window a trigger closed. A message is
 * reported failed (so SQS redelivers it) exactly when one of its events could not be applied; everything applied is
 * idempotent under redelivery (event-id dedupe), so a retried message never counts twice.
 */
public final class IngestService {

    private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);
    private static final String RETRIES_EXHAUSTED = "RETRIES_EXHAUSTED";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FaninEngine engine;
    private final WindowWrites writes;
    private final FlushService flush;

    public IngestService(FaninEngine engine) {
        this.engine = engine;
        this.writes = new WindowWrites(engine);
        this.flush = new FlushService(engine);
    }

    public BatchResult handle(List<InboundMessage> messages) {
        Instant now = engine.clock().instant();
        Metrics metrics = engine.ports().metrics();
        Set<String> failed = new HashSet<>();
        Counts counts = new Counts();
        Map<String, InboundMessage> byId = new HashMap<>();
        Map<String, List<Event>> byPipeline = new LinkedHashMap<>();
        Map<String, QueueEvidence> queue = new HashMap<>();
        Followups followups = new Followups();
        for (InboundMessage m : messages) {
            byId.put(m.messageId(), m);
            if (receiveCount(m) > 1) {
                followups.redeliveredMessages.add(m.messageId());
            }
            IntakeResult r = engine.intake().parse(m);
            if (!r.rejected().isEmpty()) {
                deadLetter(m, code(r.rejected()), reason(r.rejected()), r.rejected().get(0).pipeline(), failed, counts);
            }
            if (!r.ignored().isEmpty()) {
                counts.ignored++;
                metrics.count(MetricNames.IGNORED_MESSAGES, r.ignored().get(0).pipeline() == null ? "none" : r.ignored().get(0).pipeline());
            }
            for (Event e : r.accepted()) {
                byPipeline.computeIfAbsent(e.pipeline(), p -> new ArrayList<>()).add(e);
                m.sentAt().ifPresent(sent -> queue.compute(e.pipeline(), (p, q) -> (q == null ? QueueEvidence.NONE : q).with(
                        sent.toEpochMilli(), receiveCount(m), now.toEpochMilli(), engine.machine(p).config().watermark().outOfOrderness())));
            }
        }
        for (Map.Entry<String, List<Event>> entry : byPipeline.entrySet()) {
            ingestPipeline(entry.getKey(), entry.getValue(), queue.getOrDefault(entry.getKey(), QueueEvidence.NONE), now, followups, failed, counts);
        }
        flush.flush(followups);
        // A message failing on its last delivery is dead-lettered here, with its reason, instead of by the redrive
        // policy (which would carry no reason).
        List<String> stillFailed = new ArrayList<>();
        for (String id : failed) {
            InboundMessage m = byId.get(id);
            if (m != null && receiveCount(m) >= engine.settings().maxReceiveCount() && !counts.deadLetteredIds.contains(id)) {
                Set<String> ignore = new HashSet<>();
                deadLetter(m, RETRIES_EXHAUSTED, RETRIES_EXHAUSTED + ": " + counts.failureReasons.getOrDefault(id, "could not be applied")
                        + " (on delivery " + receiveCount(m) + ", MaxReceiveCount " + engine.settings().maxReceiveCount() + ")", null, ignore, counts);
                if (ignore.isEmpty()) {
                    continue;
                }
            }
            stillFailed.add(id);
        }
        return new BatchResult(stillFailed, messages.size(), counts.accepted, counts.duplicates, counts.late, counts.tooLate,
                counts.deadLettered, counts.ignored);
    }

    private void ingestPipeline(String pipeline, List<Event> events, QueueEvidence queue, Instant now, Followups followups,
                                Set<String> failed, Counts counts) {
        WindowMachine machine = engine.machine(pipeline);
        PipelineConfig config = machine.config();
        long maxEventTime = events.stream().mapToLong(e -> e.eventTime().toEpochMilli()).max().orElse(Long.MIN_VALUE);
        long watermark;
        try {
            FaninEngine.BatchWatermark batch = engine.watermark(pipeline, maxEventTime, queue, now);
            watermark = batch.millis();
            // Stored before the windows are written, so that a concurrent sweep holds back as this batch does.
            batch.episodeToStore().ifPresent(b -> engine.ports().watermarks().recordBacklog(pipeline, b));
        } catch (StoreUnavailableException e) {
            fail(events, failed, counts, "store unavailable reading the watermark");
            return;
        }
        followups.watermarks.put(pipeline, watermark);
        if (config.window() instanceof WindowSpec.Session) {
            Map<String, List<Event>> byKey = events.stream().collect(Collectors.groupingBy(Event::key, LinkedHashMap::new, Collectors.toList()));
            int ahead = byKey.size();
            List<WindowRef> keys = byKey.keySet().stream().map(k -> WindowRef.wholeKey(pipeline, k)).toList();
            for (Map.Entry<String, List<Event>> e : byKey.entrySet()) {
                // A key's events rarely open more than one session: this many new windows may still come.
                followups.dueAhead.put(pipeline, keys.subList(keys.size() - ahead, keys.size()));
                followups.creationsAhead.put(pipeline, ahead--);
                isolated(e.getValue(), failed, counts, () ->
                        ingestSessions(machine, pipeline, e.getKey(), e.getValue(), watermark, now, followups, failed, counts));
            }
        } else {
            Map<WindowRef, List<Event>> byWindow = new LinkedHashMap<>();
            Map<WindowRef, Interval> bounds = new HashMap<>();
            for (Event e : events) {
                for (Interval w : WindowAssigner.assign(config.window(), e.eventTime().toEpochMilli())) {
                    WindowRef ref = new WindowRef(pipeline, e.key(), WindowRef.timeWindowId(w.startMillis()));
                    byWindow.computeIfAbsent(ref, r -> new ArrayList<>()).add(e);
                    bounds.put(ref, w);
                }
            }
            int ahead = byWindow.size();
            List<WindowRef> refs = List.copyOf(byWindow.keySet());
            for (Map.Entry<WindowRef, List<Event>> e : byWindow.entrySet()) {
                followups.dueAhead.put(pipeline, refs.subList(refs.size() - ahead, refs.size()));
                followups.creationsAhead.put(pipeline, ahead--);
                isolated(e.getValue(), failed, counts, () ->
                        ingestWindow(machine, e.getKey(), bounds.get(e.getKey()), e.getValue(), watermark, now, followups, failed, counts));
            }
        }
        followups.dueAhead.remove(pipeline);
        try {
            engine.ports().watermarks().advance(pipeline, Instant.ofEpochMilli(maxEventTime), now);
        } catch (StoreUnavailableException e) {
            // The watermark only lags; the next batch or the idle advance moves it on.
            LOG.warn("watermark not advanced for pipeline {}: {}", pipeline, e.getMessage());
        }
    }

    private void ingestWindow(WindowMachine machine, WindowRef ref, Interval bounds, List<Event> events, long watermark, Instant now,
                              Followups followups, Set<String> failed, Counts counts) {
        try {
            for (int attempt = 0; attempt <= engine.settings().conflictRetries(); attempt++) {
                Optional<StoredWindow> loaded = engine.ports().store().load(ref);
                WindowState state = loaded.map(engine::decode).orElseGet(() -> machine.open(ref, bounds, now));
                Transition t = machine.ingest(state, events, watermark, now);
                if (!t.write()) {
                    record(t.outcomes(), ref, watermark, failed, counts);
                    rearmAfterRedelivery(machine, state, events, watermark, now, followups);
                    return;
                }
                WriteOutcome outcome = writes.write(loaded.orElse(null), t, followups);
                if (outcome.applied()) {
                    record(t.outcomes(), ref, watermark, failed, counts);
                    return;
                }
                if (outcome.reason() == WriteOutcome.Rejection.OPEN_WINDOW_BOUND) {
                    refuse(ref, events, failed, counts);
                    return;
                }
            }
            fail(events, failed, counts, "window " + ref.windowId() + " kept conflicting");
        } catch (StoreUnavailableException e) {
            engine.ports().metrics().count(MetricNames.STORE_UNAVAILABLE, ref.pipeline());
            fail(events, failed, counts, "store unavailable: " + e.getMessage());
        }
    }

    /**
     * Sessions must see their neighbours: the key's windows are loaded together, the planner decides which session
     * each event extends, creates or bridges, and each resulting session is written under its own condition (a merge
     * atomically with the sessions it absorbs). On a conflict the whole key is re-planned; events already applied
     * are then duplicates, which is harmless.
     */
    private void ingestSessions(WindowMachine machine, String pipeline, String key, List<Event> events, long watermark, Instant now,
                                Followups followups, Set<String> failed, Counts counts) {
        WindowSpec.Session spec = (WindowSpec.Session) machine.config().window();
        List<Event> pending = new ArrayList<>(events);
        try {
            for (int attempt = 0; attempt <= engine.settings().conflictRetries() && !pending.isEmpty(); attempt++) {
                Map<String, StoredWindow> stored = new LinkedHashMap<>();
                Map<String, WindowState> states = new LinkedHashMap<>();
                for (StoredWindow w : engine.ports().store().loadKey(pipeline, key)) {
                    stored.put(w.ref().windowId(), w);
                    states.put(w.ref().windowId(), engine.decode(w));
                }
                // Dedupe across the key's sessions: an event already counted by any session of the key (a
                // redelivery) is a duplicate, even if a correction has since stretched a closed session over it, so
                // the planner never routes it to a second session.
                Map<String, WindowRef> counted = new HashMap<>();
                for (WindowState s : states.values()) {
                    for (String digest : s.eventIds()) {
                        counted.putIfAbsent(digest, s.ref());
                    }
                }
                List<Event> fresh = new ArrayList<>();
                Map<String, List<Event>> duplicatesBySession = new LinkedHashMap<>();
                for (Event e : pending) {
                    WindowRef holder = counted.get(EventIdDigest.of(e.eventId()));
                    if (holder != null) {
                        record(List.of(new EventOutcome(e, EventOutcome.Disposition.DUPLICATE)), holder, watermark, failed, counts);
                        duplicatesBySession.computeIfAbsent(holder.windowId(), id -> new ArrayList<>()).add(e);
                    } else {
                        fresh.add(e);
                    }
                }
                duplicatesBySession.forEach((id, evs) -> rearmAfterRedelivery(machine, states.get(id), evs, watermark, now, followups));
                pending = fresh;
                if (pending.isEmpty()) {
                    break;
                }
                List<SessionView> views = states.values().stream()
                        .filter(s -> s.status() != WindowStatus.MERGED)
                        .map(s -> new SessionView(s.ref().windowId(), s.bounds(), s.status()))
                        .toList();
                List<Long> times = pending.stream().map(e -> e.eventTime().toEpochMilli()).toList();
                SessionPlan plan = SessionPlanner.plan(spec.gap(), views, times);
                List<Event> conflicted = new ArrayList<>();
                for (SessionPlan.Target target : plan.sessions()) {
                    List<Event> evs = target.eventIndexes().stream().map(pending::get).toList();
                    WindowRef ref = new WindowRef(pipeline, key, target.windowId());
                    WindowState state = target.created() ? machine.open(ref, target.bounds(), now) : states.get(target.windowId());
                    List<StoredWindow> absorbedPrev = new ArrayList<>();
                    List<StoredWindow> absorbedNext = new ArrayList<>();
                    for (String id : target.absorbed()) {
                        state = machine.absorb(state, states.get(id));
                        absorbedPrev.add(stored.get(id));
                        absorbedNext.add(dev.fanin.core.machine.WindowCodec.encode(machine.merged(states.get(id), now)));
                    }
                    Transition t = machine.ingest(state, evs, watermark, now);
                    if (!absorbedPrev.isEmpty() && !t.write()) {
                        t = machine.tick(state, watermark, now);
                        t = new Transition(t.next(), true, machine.ingest(state, evs, watermark, now).outcomes(), t.action(), t.timerDue(), t.indexDue());
                    }
                    if (!t.write()) {
                        record(t.outcomes(), ref, watermark, failed, counts);
                        continue;
                    }
                    WriteOutcome outcome;
                    if (absorbedPrev.isEmpty()) {
                        outcome = writes.write(target.created() ? null : stored.get(target.windowId()), t, followups);
                    } else {
                        outcome = writeMerge(stored.get(target.windowId()), t, absorbedPrev, absorbedNext, followups);
                    }
                    if (outcome.applied()) {
                        record(t.outcomes(), ref, watermark, failed, counts);
                    } else if (outcome.reason() == WriteOutcome.Rejection.OPEN_WINDOW_BOUND) {
                        refuse(ref, evs, failed, counts);
                    } else {
                        conflicted.addAll(evs);
                    }
                }
                for (SessionPlan.FlushedTarget target : plan.flushed()) {
                    List<Event> evs = target.eventIndexes().stream().map(pending::get).toList();
                    WindowState state = states.get(target.windowId());
                    Transition t = machine.ingest(state, evs, watermark, now);
                    WindowRef ref = state.ref();
                    if (!t.write()) {
                        record(t.outcomes(), ref, watermark, failed, counts);
                        continue;
                    }
                    WriteOutcome outcome = writes.write(stored.get(target.windowId()), t, followups);
                    if (outcome.applied()) {
                        record(t.outcomes(), ref, watermark, failed, counts);
                    } else {
                        conflicted.addAll(evs);
                    }
                }
                pending = conflicted;
            }
            if (!pending.isEmpty()) {
                fail(pending, failed, counts, "sessions of key kept conflicting");
            }
        } catch (StoreUnavailableException e) {
            engine.ports().metrics().count(MetricNames.STORE_UNAVAILABLE, pipeline);
            fail(pending, failed, counts, "store unavailable: " + e.getMessage());
        }
    }

    /**
     * Runs one window's (or one session key's) step so that an unexpected failure there (a fanin bug, a window whose
     * stored state cannot be read) fails only the messages of {@code events}: SQS redelivers them and, past
     * maxReceiveCount, they are dead-lettered with this reason; the rest of the batch is counted as usual.
     */
    private static void isolated(List<Event> events, Set<String> failed, Counts counts, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.error("events of {} messages could not be applied; they are retried", events.size(), e);
            fail(events, failed, counts, "INTERNAL_ERROR: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * A redelivered message that changed nothing in {@code state} may follow a crash between its first delivery's
     * write and the timer send, which would leave the window to the sweeper: the window's live chain gets its next
     * message, as if the chain's own message had come. If the chain was not lost, it now has two copies, which cost a
     * read per hop until the window closes, like an SQS duplicate. A window due now is left to its other visitors.
     */
    private void rearmAfterRedelivery(WindowMachine machine, WindowState state, List<Event> events, long watermark, Instant now,
                                      Followups followups) {
        TimerChain chain = state.timer();
        if (chain == null || events.stream().noneMatch(e -> followups.redeliveredMessages.contains(e.sourceMessageId()))) {
            return;
        }
        Transition t = machine.tick(state, watermark, now, WindowMachine.Visitor.timer(chain.id(), chain.armedFor()));
        if (!t.write() && t.armsTimer()) {
            followups.timers.add(WindowWrites.wakeup(t));
            engine.ports().metrics().count(MetricNames.TIMERS_REARMED_ON_REDELIVERY, state.ref().pipeline());
        }
    }

    private WriteOutcome writeMerge(StoredWindow survivorPrev, Transition t, List<StoredWindow> absorbedPrev, List<StoredWindow> absorbedNext,
                                    Followups followups) {
        List<StoredWindow> prev = new ArrayList<>();
        List<StoredWindow> next = new ArrayList<>();
        prev.add(survivorPrev);
        next.add(dev.fanin.core.machine.WindowCodec.encode(t.next()));
        prev.addAll(absorbedPrev);
        next.addAll(absorbedNext);
        writes.listBefore(survivorPrev, t.next(), followups);
        WriteOutcome outcome = engine.ports().store().replaceAll(prev, next);
        if (outcome.applied()) {
            WindowLog.info(LOG, t.next().ref(), "sessions merged", Map.of("absorbed", t.next().absorbed()));
            for (StoredWindow absorbed : absorbedPrev) {
                writes.merged(engine.decode(absorbed), followups);
            }
            if (t.action() == Transition.Action.EMIT) {
                followups.claimed.add(t.next().withVersion(survivorPrev.version() + 1));
            }
            if (t.armsTimer()) {
                followups.timers.add(WindowWrites.wakeup(t));
            }
        }
        return outcome;
    }

    private void record(List<EventOutcome> outcomes, WindowRef ref, long watermark, Set<String> failed, Counts counts) {
        Metrics metrics = engine.ports().metrics();
        String pipeline = ref.pipeline();
        PipelineConfig config = engine.machine(pipeline).config();
        for (EventOutcome o : outcomes) {
            Event e = o.event();
            switch (o.disposition()) {
                case ACCEPTED -> counts.accepted++;
                case ACCEPTED_LATE, CORRECTION -> {
                    counts.accepted++;
                    counts.late++;
                    lateMetric(metrics, pipeline, o.disposition() == EventOutcome.Disposition.CORRECTION ? "correction" : "folded");
                }
                case DUPLICATE -> {
                    counts.duplicates++;
                    metrics.count(MetricNames.DUPLICATE_EVENTS, pipeline);
                    if (LOG.isDebugEnabled()) {
                        WindowLog.debug(LOG, ref, "duplicate event suppressed", Map.of("eventId", e.eventId(), "messageId", e.sourceMessageId()));
                    }
                }
                case TOO_LATE -> {
                    counts.tooLate++;
                    if (config.late().tooLate() == LatePolicy.TooLate.DROP) {
                        lateMetric(metrics, pipeline, "dropped");
                        WindowLog.info(LOG, ref, "too-late event dropped (late.tooLate: drop)", Map.of("eventId", e.eventId(),
                                "messageId", e.sourceMessageId(), "eventTime", e.eventTime()));
                    } else {
                        lateMetric(metrics, pipeline, "side-output");
                        sideOutput("LATE_EVENT", "TOO_LATE", "beyond allowed lateness " + config.allowedLateness(), e, ref, watermark, failed, counts);
                    }
                }
                case WINDOW_FULL -> sideOutput("WINDOW_FULL", "WINDOW_FULL", "window " + ref.windowId() + " already holds bounds.maxEventsPerWindow="
                        + config.bounds().maxEventsPerWindow() + " events (bounds.onOverflow: side-output)", e, ref, watermark, failed, counts);
                case RETRY -> fail(List.of(e), failed, counts, "SIZE_LIMIT_SPLIT: window " + ref.windowId() + " reached bounds.maxEventsPerWindow="
                        + config.bounds().maxEventsPerWindow() + " events and its next revision has not started yet");
                default -> throw new IllegalStateException("unhandled disposition " + o.disposition());
            }
        }
        if (!outcomes.isEmpty()) {
            long counted = outcomes.stream().filter(o -> o.disposition().counted()).count();
            if (counted > 0) {
                metrics.record(MetricNames.EVENTS_ACCEPTED, counted, Metrics.Unit.COUNT, Map.of("pipeline", pipeline));
            }
        }
    }

    private static void lateMetric(Metrics metrics, String pipeline, String disposition) {
        metrics.record(MetricNames.LATE_EVENTS, 1, Metrics.Unit.COUNT, Map.of("pipeline", pipeline, "disposition", disposition));
    }

    private void sideOutput(String kind, String code, String detail, Event e, WindowRef ref, long watermark, Set<String> failed,
                            Counts counts) {
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
            fail(List.of(e), failed, counts, "side output unavailable: " + ex.getMessage());
        }
    }

    private void refuse(WindowRef ref, List<Event> events, Set<String> failed, Counts counts) {
        engine.ports().metrics().count(MetricNames.ADMISSION_REFUSED, ref.pipeline());
        WindowLog.warn(LOG, ref, "new window refused: the pipeline is at bounds.maxOpenWindows; the messages are retried",
                Map.of("maxOpenWindows", engine.machine(ref.pipeline()).config().bounds().maxOpenWindows()));
        fail(events, failed, counts, "OPEN_WINDOW_BOUND: pipeline " + ref.pipeline() + " holds bounds.maxOpenWindows="
                + engine.machine(ref.pipeline()).config().bounds().maxOpenWindows() + " open windows; window " + ref.windowId()
                + " waits for one to close");
    }

    private static void fail(List<Event> events, Set<String> failed, Counts counts, String reason) {
        for (Event e : events) {
            failed.add(e.sourceMessageId());
            counts.failureReasons.putIfAbsent(e.sourceMessageId(), reason);
        }
    }

    private void deadLetter(InboundMessage m, String code, String reason, String pipeline, Set<String> failed, Counts counts) {
        try {
            engine.ports().deadLetters().send(m.messageId(), m.body(), m.attributes(), code, reason);
            counts.deadLettered++;
            counts.deadLetteredIds.add(m.messageId());
            engine.ports().metrics().count(MetricNames.DEAD_LETTERED, pipeline == null ? "none" : pipeline);
            org.slf4j.MDC.put("messageId", m.messageId());
            LOG.warn("message dead-lettered: {}", reason);
            org.slf4j.MDC.remove("messageId");
        } catch (RuntimeException e) {
            // Not lost: SQS redelivers it and, past maxReceiveCount, its redrive policy moves it to the DLQ.
            failed.add(m.messageId());
            LOG.warn("dead-lettering message {} failed, it will be redelivered: {}", m.messageId(), e.getMessage());
        }
    }

    /** The rejections' codes, distinct, sorted, joined by {@code ,}. */
    private static String code(List<Rejected> rejected) {
        return rejected.stream().map(r -> r.reason().name()).distinct().sorted().collect(Collectors.joining(","));
    }

    private static String reason(List<Rejected> rejected) {
        return rejected.stream()
                .map(r -> (r.recordIndex() >= 0 ? "record " + r.recordIndex() + ": " : "") + r.reason().name() + ": " + r.detail())
                .collect(Collectors.joining("; "));
    }

    private static int receiveCount(InboundMessage m) {
        try {
            return Integer.parseInt(m.attributes().getOrDefault("ApproximateReceiveCount", "1"));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static final class Counts {
        int accepted;
        int duplicates;
        int late;
        int tooLate;
        int deadLettered;
        int ignored;
        final Set<String> deadLetteredIds = new HashSet<>();
        final Map<String, String> failureReasons = new HashMap<>();
    }
}
