package dev.fanin.core.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.machine.Claim;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.port.StoreUnavailableException;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.watermark.Watermark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flush protocol (docs/FLUSH.md): a revision has been <em>claimed</em> (frozen, fenced, leased) by a conditional
 * write; this service <em>emits</em> the frozen aggregate and then <em>commits</em> it, conditional on the window
 * still carrying the claimer's fence. Crash after the claim: the lease ends and a sweep or timer takes over,
 * re-emitting the same aggregate id. Crash after the emission: the same. A commit that finds another fence is a
 * duplicate flush and writes nothing.
 */
public final class FlushService {

    private static final Logger LOG = LoggerFactory.getLogger(FlushService.class);
    /** The side-output kind and reason code of a window dead-lettered by the HOLD policy at its deadline. */
    static final String DEAD_LETTERED_KIND = "WINDOW_DEAD_LETTERED";
    static final String DEAD_LETTERED_CODE = "INCOMPLETE_AT_DEADLINE";

    private final FaninEngine engine;
    private final WindowWrites writes;
    private final SessionCommit sessionCommits;

    public FlushService(FaninEngine engine) {
        this.engine = engine;
        this.writes = new WindowWrites(engine);
        this.sessionCommits = new SessionCommit(engine, writes, this);
    }

    /**
     * Emits and commits every claimed window in {@code followups}, and any correction a commit claims right away;
     * then returns the invocation's open-window slots and, last, arms the recorded timers: a timer visit whose
     * invocation fails after its continuation was sent is redelivered and sends it again (a second copy of the chain),
     * so nothing that can fail comes after the sends.
     *
     * @return the timers that could not be armed
     */
    List<WindowTimers.Wakeup> flush(Followups followups) {
        emitClaimed(followups);
        writes.settleSlots(followups);
        return writes.armTimers(followups);
    }

    /** The first part of {@link #flush}: emits and commits the claims, and the corrections their commits claim. */
    void emitClaimed(Followups followups) {
        for (int round = 0; round <= engine.settings().flushChainLimit() && !followups.claimed.isEmpty(); round++) {
            List<WindowState> claimed = WindowWrites.drain(followups.claimed);
            emitAndCommit(claimed, followups);
        }
        // Claims left beyond the chain limit stay claimed; their lease makes the sweeper finish them.
        followups.claimed.clear();
    }

    private void emitAndCommit(List<WindowState> claimed, Followups followups) {
        Instant now = engine.clock().instant();
        List<WindowState> toTarget = new ArrayList<>();
        List<WindowState> sent = new ArrayList<>();
        for (WindowState s : claimed) {
            if (!s.claim().deadLetter()) {
                toTarget.add(s);
            } else if (deadLetter(s, now)) {
                sent.add(s);
            }
        }
        sent.addAll(emit(toTarget, now, followups));
        for (WindowState s : sent) {
            commit(s, followups);
        }
    }

    /** Sends a claim the policy dead-letters to the side output; false (logged, counted) when that fails. */
    private boolean deadLetter(WindowState s, Instant now) {
        Claim claim = s.claim();
        try {
            engine.ports().sideOutput().send(DEAD_LETTERED_KIND, s.ref().pipeline(), deadLetteredRecord(s, claim, now));
            engine.ports().metrics().count(MetricNames.DEAD_LETTERED, s.ref().pipeline());
            engine.ports().metrics().count(MetricNames.WINDOWS_DEAD_LETTERED, s.ref().pipeline());
            return true;
        } catch (RuntimeException e) {
            engine.ports().metrics().count(MetricNames.EMIT_FAILURES, s.ref().pipeline());
            WindowLog.warn(LOG, s.ref(), "dead-lettering the window failed; its claim will be taken over",
                    Map.of("aggregateId", claim.aggregateId(), "error", String.valueOf(e.getMessage())));
            return false;
        }
    }

    /**
     * Emits the claims to their targets in one call; returns those sent. A failed one stays claimed and is taken over
     * when its lease ends; its error goes into {@code followups}.
     */
    private List<WindowState> emit(List<WindowState> claims, Instant now, Followups followups) {
        if (claims.isEmpty()) {
            return List.of();
        }
        List<AggregateEmitter.Request> requests = new ArrayList<>();
        for (WindowState s : claims) {
            requests.add(new AggregateEmitter.Request(s.claim().aggregateId(), s.ref().pipeline(), emission(s.claim(), now)));
        }
        List<AggregateEmitter.Result> results;
        try {
            results = engine.ports().emitter().emit(requests);
        } catch (RuntimeException e) {
            results = requests.stream().map(r -> new AggregateEmitter.Result(r.aggregateId(), false, String.valueOf(e.getMessage()))).toList();
        }
        Metrics metrics = engine.ports().metrics();
        List<WindowState> sent = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            WindowState s = claims.get(i);
            AggregateEmitter.Result r = results.get(i);
            if (r.sent()) {
                metrics.count(MetricNames.AGGREGATES_EMITTED, s.ref().pipeline());
                sent.add(s);
            } else {
                metrics.count(MetricNames.EMIT_FAILURES, s.ref().pipeline());
                followups.emitErrors.put(s.ref(), String.valueOf(r.error()));
                WindowLog.warn(LOG, s.ref(), "emission failed; the claim stays and is taken over when its lease ends",
                        Map.of("aggregateId", s.claim().aggregateId(), "error", String.valueOf(r.error()), "leaseUntil", s.leaseUntil()));
            }
        }
        return sent;
    }

    /** The frozen emission with this emission's time; every other field is as claimed. */
    private static String emission(Claim claim, Instant now) {
        return ExactJson.write(emissionJson(claim, now));
    }

    private static ObjectNode emissionJson(Claim claim, Instant now) {
        ObjectNode json = claim.emission();
        json.put("emittedAt", IsoMillis.format(now));
        return json;
    }

    /**
     * The side-output record of a window the HOLD policy dead-letters at its hard deadline: kind, reason code and text
     * beside every other side-output record's identity fields, and the aggregate it would have fired, as it would have.
     */
    private static String deadLetteredRecord(WindowState s, Claim claim, Instant now) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("kind", DEAD_LETTERED_KIND);
        json.put("reasonCode", DEAD_LETTERED_CODE);
        json.put("reason", DEAD_LETTERED_CODE + ": still incomplete at its hard deadline "
                + IsoMillis.format(s.hardDeadline()) + " (incomplete.policy hold, atDeadline dead-letter)");
        json.put("pipeline", s.ref().pipeline());
        json.put("key", s.ref().key());
        json.put("windowId", s.ref().windowId());
        json.put("aggregateId", claim.aggregateId());
        json.set("aggregate", emissionJson(claim, now));
        return ExactJson.write(json);
    }

    /**
     * Commits the claim {@code claimed} (as written by its claimer) if the window still carries its fence. A session's
     * first claim is still in its key's live item and is committed by {@link SessionCommit}.
     */
    private void commit(WindowState claimed, Followups followups) {
        if (claimed.kind().isSession() && !claimed.hasCommitted()) {
            sessionCommits.commit(claimed, followups);
            return;
        }
        try {
            Optional<Boolean> done = Conflicts.retry(engine.settings().conflictRetries(), () -> commitOnce(claimed, followups));
            if (done.isEmpty()) {
                WindowLog.warn(LOG, claimed.ref(), "commit kept conflicting; the lease lets a sweep finish it", Map.of());
            }
        } catch (StoreUnavailableException e) {
            WindowLog.warn(LOG, claimed.ref(), "commit deferred: store unavailable; the lease lets a sweep finish it", Map.of());
        }
    }

    private Optional<Boolean> commitOnce(WindowState claimed, Followups followups) {
        Instant now = engine.clock().instant();
        StoredWindow wrote = followups.visitWrote.remove(claimed.ref());
        Optional<StoredWindow> loaded = wrote != null ? Optional.of(wrote) : engine.ports().store().load(claimed.ref());
        if (loaded.isEmpty()) {
            return Optional.of(true);
        }
        Transition t = decideCommit(claimed, engine.decode(loaded.get()), now, followups);
        if (t == null) {
            return Optional.of(true);
        }
        // Drawn before the write is sent: a sweep's read drawn later may already see the commit (or what follows it).
        long commitSequence = engine.nextSequence();
        if (!writes.write(loaded.get(), t, followups).applied()) {
            return Optional.empty();
        }
        committed(claimed, t, now, commitSequence, followups);
        return Optional.of(true);
    }

    /**
     * The machine's commit of {@code claimed} on the window as just read, or null (counted, logged) when the claimer's
     * fence is no longer the window's: another flusher took over, or committed already.
     */
    Transition decideCommit(WindowState claimed, WindowState current, Instant now, Followups followups) {
        String pipeline = claimed.ref().pipeline();
        Watermark known = followups.watermarks.get(pipeline);
        Watermark watermark = known != null ? known : engine.watermarkAt(pipeline, now);
        Transition t = engine.machine(pipeline, watermark).commit(current, claimed.fence(), watermark.millis(), now);
        if (t.write()) {
            return t;
        }
        superseded(claimed);
        return null;
    }

    /** Counts and logs a commit that found another fence holder's claim or commit: it writes nothing. */
    void superseded(WindowState claimed) {
        engine.ports().metrics().count(MetricNames.DUPLICATE_FLUSHES, claimed.ref().pipeline());
        WindowLog.info(LOG, claimed.ref(), "flush superseded: another flusher holds or committed this revision",
                Map.of("aggregateId", claimed.claim().aggregateId(), "fence", claimed.fence()));
    }

    /** Records a commit written at {@code commitSequence}: the metrics, the log line, and the window's next visit. */
    void committed(WindowState claimed, Transition t, Instant now, long commitSequence, Followups followups) {
        String pipeline = claimed.ref().pipeline();
        WindowVisit.Visited settled = WindowVisit.Visited.of(t.next(), t, now, commitSequence);
        followups.committed.put(claimed.ref(), new Followups.Committed(settled.nextVisit(), commitSequence));
        Claim claim = claimed.claim();
        engine.ports().metrics().record(MetricNames.WINDOWS_CLOSED, 1, Metrics.Unit.COUNT, Map.of("pipeline", pipeline, "reason", claim.reason().name()));
        if (!claim.complete()) {
            engine.ports().metrics().count(MetricNames.PARTIAL_FIRES, pipeline);
        }
        WindowLog.info(LOG, claimed.ref(), "window revision committed", Map.of("aggregateId", claim.aggregateId(),
                "revision", claim.revision(), "reason", claim.reason(), "complete", claim.complete(),
                "deadLettered", claim.deadLetter(), "fence", claimed.fence()));
    }
}
