package dev.fanin.core.service;

import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.IntakeResult;
import dev.fanin.core.intake.Rejected;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.WatermarkStore;
import dev.fanin.core.watermark.QueueEvidence;
import dev.fanin.core.watermark.StoredAdvance;
import dev.fanin.core.watermark.Watermarks;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowAssigner;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one batch of deliveries (for the SQS handler, one SQS batch): intake, then the batch's windows read together
 * ({@link BatchReads}), then per window one decision and one conditional write for all of the
 * batch's events in that window (coalescing), then the immediate flush of any window a trigger closed. A message is
 * reported failed (so its input redelivers it) exactly when one of its events could not be applied; everything applied is
 * idempotent under redelivery (event-id dedupe), so a retried message never counts twice.
 */
public final class IngestService {

    private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);

    private static final String RETRIES_EXHAUSTED = "RETRIES_EXHAUSTED";

    private final FaninEngine engine;
    private final FlushService flush;
    private final TimeWindowIngest timeWindows;
    private final SessionIngest sessions;

    public IngestService(FaninEngine engine) {
        this.engine = engine;
        this.flush = new FlushService(engine);
        WindowWrites writes = new WindowWrites(engine);
        this.timeWindows = new TimeWindowIngest(engine, writes);
        this.sessions = new SessionIngest(engine, writes);
    }

    /** The most events of one window (or session key) one write takes: {@link #slices}. */
    static final int MOST_EVENTS_PER_WRITE = 2_000;

    /** A batch with all the time it needs (replays, tests, benchmarks). */
    public BatchResult handle(List<InboundMessage> messages) {
        return handle(messages, Instant.MAX);
    }

    /**
     * A batch that stops applying events at {@code deadline} (the invocation's time less a margin for the flush): the
     * events of the windows or keys not reached by then fail, so their messages are redelivered.
     */
    public BatchResult handle(List<InboundMessage> messages, Instant deadline) {
        IngestBatch batch = new IngestBatch(engine, engine.clock().instant(), deadline);
        Metrics metrics = engine.ports().metrics();
        Map<String, List<Event>> byPipeline = new LinkedHashMap<>();
        Map<String, QueueEvidence> queue = new HashMap<>();
        Map<String, List<Rejected>> rejections = new HashMap<>();
        for (InboundMessage m : messages) {
            if (m.redelivered()) {
                batch.followups.redeliveredMessages.add(m.messageId());
            }
            IntakeResult r = engine.intake().parse(m);
            if (!r.rejected().isEmpty()) {
                rejections.put(m.messageId(), r.rejected());
                if (r.accepted().isEmpty()) {
                    // Wholly bad: dead-lettered now (a partly bad one once its accepted events are decided, in settle).
                    batch.deadLetter(m, code(r.rejected(), null), reason(r.rejected()), r.rejected().get(0).pipeline());
                }
            }
            if (!r.ignored().isEmpty()) {
                batch.ignored++;
                metrics.count(MetricNames.IGNORED_MESSAGES, r.ignored().get(0).pipeline() == null ? "none" : r.ignored().get(0).pipeline());
            }
            for (Event e : r.accepted()) {
                byPipeline.computeIfAbsent(e.pipeline(), p -> new ArrayList<>()).add(e);
                m.sentAt().ifPresent(sent -> queue.compute(e.pipeline(), (p, q) -> (q == null ? QueueEvidence.NONE : q).with(
                        sent.toEpochMilli(), m.attempt(), m.leftQueueAt().toEpochMilli(), batch.start.toEpochMilli(),
                        engine.machine(p).config().watermark().outOfOrderness())));
            }
        }
        for (Map.Entry<String, List<Event>> entry : byPipeline.entrySet()) {
            ingestPipeline(batch, entry.getKey(), entry.getValue(), queue.getOrDefault(entry.getKey(), QueueEvidence.NONE));
        }
        flush.flush(batch.followups);
        return new BatchResult(settle(batch, messages, rejections), messages.size(), batch.accepted, batch.duplicates, batch.late,
                batch.tooLate, batch.deadLettered, batch.ignored);
    }

    /**
     * Dead-letters what must be, once the batch's events are decided, and returns the messages to hand back for
     * redelivery. A message with rejected parts and accepted ones (an S3 notification with a bad record) goes to the
     * dead-letter queue once, when nothing of it is handed back: a redelivery would reject them again and dead-letter
     * another copy (a message with nothing accepted was dead-lettered at intake). A message failing
     * on its last delivery is dead-lettered here with every reason (its rejected parts and why the rest could not be
     * applied), instead of by the redrive policy, which would carry none.
     */
    private List<String> settle(IngestBatch batch, List<InboundMessage> messages, Map<String, List<Rejected>> rejections) {
        List<String> handedBack = new ArrayList<>();
        for (InboundMessage m : messages) {
            String id = m.messageId();
            List<Rejected> rejected = rejections.getOrDefault(id, List.of());
            if (!batch.failed.contains(id)) {
                if (!rejected.isEmpty() && !batch.deadLetteredIds.contains(id)) {
                    batch.deadLetter(m, code(rejected, null), reason(rejected), rejected.get(0).pipeline());
                }
            } else if (m.attempt() >= engine.settings().maxReceiveCount()) {
                String exhausted = exhausted(m, batch.failureReasons.getOrDefault(id, "could not be applied"));
                batch.deadLetter(m, code(rejected, RETRIES_EXHAUSTED), rejected.isEmpty() ? exhausted : reason(rejected) + "; " + exhausted,
                        rejected.isEmpty() ? null : rejected.get(0).pipeline());
            }
            if (batch.failed.contains(id) && !batch.deadLetteredIds.contains(id)) {
                handedBack.add(id);
            }
        }
        return handedBack;
    }

    /**
     * A batch that failed as a whole before its messages were decided (the store unavailable at a cold start, say):
     * every message is handed back, but one on its last delivery, dead-lettered here with {@code why} as
     * {@link #settle} does, so that its reason goes with it (the redrive policy would carry none).
     *
     * @return the ids of the messages to hand back
     */
    public List<String> failedAsAWhole(List<InboundMessage> messages, String why) {
        IngestBatch batch = new IngestBatch(engine, engine.clock().instant(), Instant.MAX);
        List<String> handedBack = new ArrayList<>();
        for (InboundMessage m : messages) {
            boolean last = m.attempt() >= engine.settings().maxReceiveCount();
            if (!last || !batch.deadLetter(m, RETRIES_EXHAUSTED, exhausted(m, why), null)) {
                handedBack.add(m.messageId());
            }
        }
        return handedBack;
    }

    private String exhausted(InboundMessage m, String why) {
        return RETRIES_EXHAUSTED + ": " + why + " (on delivery " + m.attempt() + ", MaxReceiveCount " + engine.settings().maxReceiveCount() + ")";
    }

    private void ingestPipeline(IngestBatch batch, String pipeline, List<Event> events, QueueEvidence queue) {
        long maxEventTime = events.stream().mapToLong(Watermarks::evidenceMillis).max().orElse(Long.MIN_VALUE);
        Optional<FaninEngine.BatchWatermark> held = holdWatermark(batch, pipeline, events, maxEventTime, queue);
        if (held.isEmpty()) {
            return;
        }
        PipelineBatch share = new PipelineBatch(batch, engine.machine(pipeline, held.get().shared()), held.get().millis());
        batch.followups.watermarks.put(pipeline, held.get().shared());
        if (share.machine().config().window() instanceof WindowSpec.Session) {
            ingestSessions(share, events);
        } else {
            ingestTimeWindows(share, events);
        }
        batch.followups.dueAhead.remove(pipeline);
        // Only what was applied moves the stored newest event time: an event handed back (out of time, a store failure)
        // must not find, on its redelivery, that its own time already closed its window. An event handed back is an
        // arrival all the same, so that the idle advance does not close the windows of events being retried; but not
        // one refused for want of an open-window slot: its window does not exist, and holding the idle advance would
        // keep open the very windows whose close frees the slot.
        WatermarkStore.Reading stored = held.get().stored();
        OptionalLong newest = events.stream().filter(e -> !batch.failed.contains(e.sourceMessageId()))
                .mapToLong(Watermarks::evidenceMillis).max();
        boolean retried = events.stream().anyMatch(batch.handedBack::contains);
        if (newest.isPresent() || (retried && stored.lastArrival().toEpochMilli() > 0)) {
            storeWatermark(pipeline, stored, newest.orElse(stored.maxEventTime().toEpochMilli()), events.size());
        }
    }

    /** The watermark the batch decides at; empty (and the events failed, to be redelivered) when it cannot be read. */
    private Optional<FaninEngine.BatchWatermark> holdWatermark(IngestBatch batch, String pipeline, List<Event> events, long maxEventTime,
                                                              QueueEvidence queue) {
        try {
            FaninEngine.BatchWatermark held = engine.watermark(pipeline, maxEventTime, queue, batch.start);
            // Stored before the windows are written, so that a concurrent sweep holds back as this batch does.
            Duration idleAfter = engine.machine(pipeline).config().watermark().idleAfter();
            held.backlogToStore().ifPresent(b -> engine.ports().watermarks().recordBacklog(pipeline, b, idleAfter));
            return Optional.of(held);
        } catch (StoreUnavailableException e) {
            batch.fail(events, "store unavailable reading the watermark");
            return Optional.empty();
        }
    }

    private void ingestSessions(PipelineBatch pipelineShare, List<Event> events) {
        Map<String, List<Event>> byKey = busiestFirst(events.stream()
                .collect(Collectors.groupingBy(Event::key, LinkedHashMap::new, Collectors.toList())));
        List<WindowRef> keys = byKey.keySet().stream().map(k -> WindowRef.wholeKey(pipelineShare.pipeline(), k)).toList();
        PipelineBatch share = pipelineShare.reading(BatchReads.live(engine, pipelineShare.pipeline(), List.copyOf(byKey.keySet())));
        int ahead = keys.size();
        for (Map.Entry<String, List<Event>> e : byKey.entrySet()) {
            // A key's events rarely open more than one session: this many new windows may still come.
            expectAhead(share, keys.subList(keys.size() - ahead, keys.size()), ahead--);
            for (List<Event> slice : slices(e.getValue())) {
                isolated(share.batch(), slice, () -> sessions.ingest(share, e.getKey(), slice, () -> emitClaims(share.batch())));
            }
        }
    }

    private void ingestTimeWindows(PipelineBatch share, List<Event> events) {
        Map<WindowRef, List<Event>> byWindow = new LinkedHashMap<>();
        Map<WindowRef, Interval> bounds = new HashMap<>();
        for (Event e : events) {
            for (Interval w : WindowAssigner.assign(share.machine().config().window(), e.eventTime().toEpochMilli())) {
                WindowRef ref = new WindowRef(share.pipeline(), e.key(), WindowRef.timeWindowId(w.startMillis()));
                byWindow.computeIfAbsent(ref, r -> new ArrayList<>()).add(e);
                bounds.put(ref, w);
            }
        }
        Map<WindowRef, List<Event>> ordered = busiestFirst(byWindow);
        List<WindowRef> refs = List.copyOf(ordered.keySet());
        PipelineBatch read = share.reading(BatchReads.heads(engine, refs));
        int ahead = refs.size();
        for (Map.Entry<WindowRef, List<Event>> e : ordered.entrySet()) {
            expectAhead(read, refs.subList(refs.size() - ahead, refs.size()), ahead--);
            for (List<Event> slice : slices(e.getValue())) {
                isolated(read.batch(), slice, () -> timeWindows.ingest(read, e.getKey(), bounds.get(e.getKey()), slice));
            }
        }
    }

    /**
     * A window's (or key's) events in writes of at most {@link #MOST_EVENTS_PER_WRITE}: the store keeps room in an item
     * for about 2,500 new event-id digests a write ({@link dev.fanin.core.config.SizeBudget#STORE_RESERVE_BYTES}), and an
     * ingest batch may be 10,000 messages, all for one window. The writes after the first read the item again.
     */
    private static List<List<Event>> slices(List<Event> events) {
        if (events.size() <= MOST_EVENTS_PER_WRITE) {
            return List.of(events);
        }
        // In event-time order, as one write takes them: a session cut short at its size bound by the first slice must
        // not find the on-time events of a later slice inside it (late), when one write would have left them to the
        // session that continues it.
        List<Event> ordered = new ArrayList<>(events);
        ordered.sort(Comparator.comparing(Event::eventTime).thenComparing(Event::eventId));
        List<List<Event>> slices = new ArrayList<>();
        for (int from = 0; from < ordered.size(); from += MOST_EVENTS_PER_WRITE) {
            slices.add(ordered.subList(from, Math.min(ordered.size(), from + MOST_EVENTS_PER_WRITE)));
        }
        return slices;
    }

    /**
     * The windows (or session keys) with the most of the batch's events first, ties in arrival order: they are read up
     * front together, and the one with the most events is the one other invocations most likely write too, so it is
     * written soonest after that read.
     */
    private static <K> Map<K, List<Event>> busiestFirst(Map<K, List<Event>> eventsByTarget) {
        Map<K, List<Event>> ordered = new LinkedHashMap<>();
        eventsByTarget.entrySet().stream()
                .sorted((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()))
                .forEach(e -> ordered.put(e.getKey(), e.getValue()));
        return ordered;
    }

    /** The windows this batch may still create, from the one it writes next on: listed and counted ahead of it. */
    private static void expectAhead(PipelineBatch share, List<WindowRef> refs, int creations) {
        share.batch().followups.dueAhead.put(share.pipeline(), refs);
        share.batch().followups.creationsAhead.put(share.pipeline(), creations);
    }

    /** Advances the stored watermark to the batch's newest event time, unless the stored one is close enough. */
    private void storeWatermark(String pipeline, WatermarkStore.Reading stored, long maxEventTime, int events) {
        // The arrival stored is the time of the write, not the batch's start: StoredAdvance relies on it.
        Instant writeAt = engine.clock().instant();
        if (!StoredAdvance.needed(stored.maxEventTime().toEpochMilli(), stored.lastArrival().toEpochMilli(), maxEventTime,
                writeAt.toEpochMilli(), events)) {
            return;
        }
        try {
            engine.ports().watermarks().advance(pipeline, Instant.ofEpochMilli(maxEventTime), writeAt);
        } catch (StoreUnavailableException e) {
            // The watermark only lags; the next batch or the idle advance moves it on.
            LOG.warn("watermark not advanced for pipeline {}: {}", pipeline, e.getMessage());
        }
    }

    /**
     * Runs one window's (or one session key's) step so that an unexpected failure there (a fanin bug, a window whose
     * stored state cannot be read) fails only the messages of {@code events}: their input redelivers them and, past
     * maxReceiveCount, they are dead-lettered with this reason; the rest of the batch is counted as usual. A step the
     * invocation has no time left for is not run, and its messages fail the same way.
     */
    private void isolated(IngestBatch batch, List<Event> events, Runnable step) {
        batch.startStep();
        if (batch.outOfTime(events)) {
            return;
        }
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.error("events of {} messages could not be applied; they are retried", events.size(), e);
            batch.fail(events, "INTERNAL_ERROR: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        emitClaimsHalfwayThroughTheirLease(batch);
    }

    /** A batch emits its claims at its end, unless the oldest has used half its lease by then ({@link Followups#claimLeaseHalfUsed}). */
    private void emitClaimsHalfwayThroughTheirLease(IngestBatch batch) {
        if (batch.followups.claimLeaseHalfUsed(engine.clock().instant(), engine.settings().lease())) {
            emitClaims(batch);
        }
    }

    /** Emits and commits the batch's claims now; a failure leaves them claimed, for their lease to end. */
    private void emitClaims(IngestBatch batch) {
        try {
            flush.emitClaimed(batch.followups);
        } catch (RuntimeException e) {
            // The batch goes on: a claim not emitted stays claimed, and its lease makes a sweep or a timer finish it.
            LOG.error("emitting the batch's claims before its end failed; they are taken over when their lease ends", e);
        }
    }

    /** The rejections' codes, and {@code also} unless null, distinct, sorted and joined by {@code ,}. */
    private static String code(List<Rejected> rejected, String also) {
        return Stream.concat(rejected.stream().map(r -> r.reason().name()), Stream.ofNullable(also))
                .distinct().sorted().collect(Collectors.joining(","));
    }

    private static String reason(List<Rejected> rejected) {
        return rejected.stream()
                .map(r -> (r.recordIndex() >= 0 ? "record " + r.recordIndex() + ": " : "") + r.reason().name() + ": " + r.detail())
                .collect(Collectors.joining("; "));
    }
}
