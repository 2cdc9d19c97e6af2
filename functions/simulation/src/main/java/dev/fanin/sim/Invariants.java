package dev.fanin.sim;

import dev.fanin.core.aggregate.EventIdDigest;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;

import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.window.WindowStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-of-run invariants (the per-write ones live in {@link CommitLedger}):
 * <ul>
 *   <li><b>nothing lost</b>: every produced event identity is counted in the last committed revision of exactly one
 *   window (of each SIZE_LIMIT segment; revisions are cumulative otherwise), or is in the late side output, or was
 *   dead-lettered with a reason;</li>
 *   <li><b>never double counted</b>: no identity is counted in two windows, none is counted that was never produced;
 *   and the sessions of a key never overlap;</li>
 *   <li><b>one commit per revision</b>, and every emitted aggregate id committed exactly once;</li>
 *   <li><b>every window closes</b> by its hard deadline plus clock skew and one sweep period, plus a lease and a sweep
 *   period for each fault that hit it (or hit the sweeper meanwhile), plus a sweep period per sweep that ran out of
 *   budget, plus the length of every slow call meanwhile (whatever window it concerned); and at the end every window
 *   is CLOSED (or MERGED) with nothing due;</li>
 *   <li><b>TTL</b>: after the clock passes the last TTL and the store expires items, nothing remains and the
 *   open-window counters are zero.</li>
 * </ul>
 */
final class Invariants {

    record Result(long counted, long lost, long doubleCounted, long duplicateCommits, long leftOpen, long closedLate,
                  long itemsAfterTtl, long simulatedMillis, long overlappingSessions) { }

    private final SimulationConfig config;
    private final FaninSettings settings;
    private final FaninConfig fanin;
    private final CommitLedger ledger;
    private final EmissionLog emissions;
    private final Outputs outputs;
    private final Faults faults;
    private final Workload workload;
    private final Violations violations;
    private final List<Long> exhaustedSweeps;

    Invariants(SimulationConfig config, FaninSettings settings, FaninConfig fanin, CommitLedger ledger, EmissionLog emissions, Outputs outputs,
               Faults faults, Workload workload, Violations violations, List<Long> exhaustedSweeps) {
        this.config = config;
        this.settings = settings;
        this.fanin = fanin;
        this.ledger = ledger;
        this.emissions = emissions;
        this.outputs = outputs;
        this.faults = faults;
        this.workload = workload;
        this.violations = violations;
        this.exhaustedSweeps = exhaustedSweeps;
    }

    /**
     * No event that was on time in event order ends in the side output, whatever the queue did with it (consumer
     * outages, shuffled backlogs, redeliveries; docs/SEMANTICS.md, "Consumer lag"). On time in event order: every copy
     * was sent within the pipeline's outOfOrderness of the event time, less a margin for the simulation's delivery
     * latency (its clock moves in whole seconds) and clock skew. Processing time decides two exemptions: an event that
     * reached its window after the window's hard deadline plus allowed lateness (the hard lifetime is absolute), and
     * one for a window cut by HARD_LIFETIME or SIZE_LIMIT (its continuation is issue 17's second item).
     */
    private void onTimeEventsStayOutOfTheSideOutput(String seed) {
        long margin = config.maxSkew().toMillis() + 2_000;
        outputs.lateRecords().forEach((id, sent) -> {
            PipelineConfig p = fanin.pipeline(id.pipeline()).orElseThrow();
            if (!sent.kind().equals("LATE_EVENT") || workload.sendDelay(id) > p.watermark().outOfOrderness().toMillis() - margin) {
                return;
            }
            CommitLedger.Life life = ledger.windows().get(new WindowRef(id.pipeline(), id.key(), sent.windowId()));
            boolean cut = life != null && life.segments.stream().anyMatch(r -> r.reason().equals("HARD_LIFETIME") || r.reason().equals("SIZE_LIMIT"));
            boolean afterFinal = life != null && sent.atMillis() >= life.hardDeadline.plus(p.allowedLateness()).toEpochMilli();
            if (!cut && !afterFinal) {
                violations.add(seed + "event " + id + " was on time in event order (sent " + workload.sendDelay(id) + " ms after its event time,"
                        + " outOfOrderness " + p.watermark().outOfOrderness() + ") but went to the side output as too late for window "
                        + sent.windowId() + " at " + Instant.ofEpochMilli(sent.atMillis()));
            }
        });
    }

    Result check(PipelineStores store, SimClock clock) {
        String seed = "seed " + config.seed() + ": ";
        Map<Identity, Integer> counted = countedIdentities();
        long lost = 0;
        long doubled = 0;
        for (Identity id : workload.produced()) {
            int n = counted.getOrDefault(id, 0);
            if (n > 1) {
                doubled++;
                violations.add(seed + "event " + id + " counted in " + n + " windows: " + windowsCounting(id));
            } else if (n == 1 && outputs.late().contains(id)) {
                // Every simulated window kind takes an event into one window only: counted there, no copy is too late.
                doubled++;
                violations.add(seed + "event " + id + " counted in " + windowsCounting(id) + " and also sent to the late side output");
            } else if (n == 0 && !outputs.late().contains(id) && !outputs.dead().contains(id)) {
                lost++;
                violations.add(seed + "event " + id + " lost: not counted, not in the late side output, not dead-lettered; the key's windows: "
                        + windowsOfKey(id));
            }
        }
        onTimeEventsStayOutOfTheSideOutput(seed);
        for (Identity id : counted.keySet()) {
            if (!workload.produced().contains(id)) {
                violations.add(seed + "event " + id + " counted but never produced");
            }
        }
        long duplicateCommits = ledger.commits().values().stream().filter(n -> n > 1).count();
        for (Map.Entry<String, EmissionLog.Emitted> e : emissions.byId().entrySet()) {
            int commits = ledger.commits().getOrDefault(e.getKey(), 0);
            if (commits != 1) {
                violations.add(seed + "aggregate " + e.getKey() + " emitted " + EmissionLog.count(e.getValue()) + " times but committed " + commits + " times");
            }
        }
        long[] closure = closure(seed);
        long endMillis = clock.millis();
        for (StoredWindow w : store.all()) {
            boolean done = (w.status() == WindowStatus.CLOSED || w.status() == WindowStatus.MERGED) && w.dueAt() == null;
            if (!done) {
                violations.add(seed + "window " + w.ref() + " left " + w.status() + (w.dueAt() != null ? ", due at " + w.dueAt() : "")
                        + " when the run ended at " + clock.instant());
            }
        }
        long overlapping = overlappingSessions(store, seed);
        long itemsAfterTtl = afterTtl(store, clock, seed);
        return new Result(counted.values().stream().filter(n -> n >= 1).count(), lost, doubled, duplicateCommits, closure[0], closure[1],
                itemsAfterTtl, endMillis - Simulation.START.toEpochMilli(), overlapping);
    }

    /** Identity -> in how many windows' final revisions it is counted. */
    private Map<Identity, Integer> countedIdentities() {
        Map<Identity, Integer> counted = new HashMap<>();
        Map<String, List<CommittedRevision>> withExpected = new HashMap<>();
        for (CommitLedger.Life life : ledger.windows().values()) {
            String pipeline = life.ref.pipeline();
            String key = life.ref.key();
            for (CommittedRevision c : life.segments) {
                if (c.deadLetter()) {
                    continue;
                }
                for (String id : c.ids()) {
                    counted.merge(new Identity(pipeline, key, id), 1, Integer::sum);
                }
                if (c.expected() != null) {
                    withExpected.computeIfAbsent(pipeline + "\u0000" + key, k -> new ArrayList<>()).add(c);
                }
            }
        }
        // A sentinel that is not an event is counted by the window whose expected count it set.
        for (Map.Entry<Identity, Long> s : workload.sentinels().entrySet()) {
            Identity id = s.getKey();
            for (CommittedRevision c : withExpected.getOrDefault(id.pipeline() + "\u0000" + id.key(), List.of())) {
                if (c.startMillis() <= s.getValue() && s.getValue() < c.endMillis()) {
                    counted.merge(id, 1, Integer::sum);
                }
            }
        }
        return counted;
    }

    private List<String> windowsOfKey(Identity id) {
        List<String> out = new ArrayList<>();
        for (CommitLedger.Life life : ledger.windows().values()) {
            if (life.ref.pipeline().equals(id.pipeline()) && life.ref.key().equals(id.key())) {
                for (CommittedRevision c : life.segments) {
                    out.add(c.aggregateId() + " " + c.reason() + (c.deadLetter() ? " dead-lettered" : "") + " expected " + c.expected()
                            + " [" + Instant.ofEpochMilli(c.startMillis()) + ", " + Instant.ofEpochMilli(c.endMillis()) + ")"
                            + (life.merged ? " (window merged)" : ""));
                }
            }
        }
        return out;
    }

    private List<String> windowsCounting(Identity id) {
        List<String> out = new ArrayList<>();
        for (CommitLedger.Life life : ledger.windows().values()) {
            if (life.ref.pipeline().equals(id.pipeline()) && life.ref.key().equals(id.key())) {
                for (CommittedRevision c : life.segments) {
                    if (c.ids().contains(id.eventId())) {
                        out.add(c.aggregateId() + " " + c.reason() + " [" + Instant.ofEpochMilli(c.startMillis()) + ", "
                                + Instant.ofEpochMilli(c.endMillis()) + ")" + (life.merged ? " (window merged)" : ""));
                    }
                }
            }
        }
        return out;
    }

    /** [windows never closed, windows closed after their bound]. */
    long[] closure(String seed) {
        long skew = config.maxSkew().toMillis();
        long period = config.sweepPeriod().toMillis();
        long lease = settings.lease().toMillis();
        long perFault = lease + period + 2 * skew;
        long leftOpen = 0;
        long late = 0;
        for (CommitLedger.Life life : ledger.windows().values()) {
            if (life.merged) {
                continue;
            }
            if (life.firstCloseAt < 0) {
                leftOpen++;
                violations.add(seed + "window " + life.ref + " (hard deadline " + life.hardDeadline + ") never closed");
                continue;
            }
            long deadline = life.closeDeadline.toEpochMilli();
            long faultsHit = faults.faultsOf(life.ref) + faults.pipelineWideFaultsBetween(deadline - perFault, life.firstCloseAt);
            long exhausted = exhaustedSweeps.stream().filter(t -> t >= deadline - period && t <= life.firstCloseAt).count();
            // A slow call stops the one clock for everything else: whichever window it concerned, it delays the sweep
            // that holds this window's claim (or has yet to visit it) and the schedule's next run by its length.
            long slowed = faults.slowCallsBetween(deadline - 2 * skew - Faults.SLOW_CALL, life.firstCloseAt);
            long bound = deadline + 2 * skew + period + faultsHit * perFault + exhausted * period + slowed * Faults.SLOW_CALL;
            if (life.firstCloseAt > bound) {
                late++;
                violations.add(seed + "window " + life.ref + " closed at " + Instant.ofEpochMilli(life.firstCloseAt) + ", after its bound "
                        + Instant.ofEpochMilli(bound) + " (hard deadline " + life.closeDeadline + ", " + faultsHit + " faults, "
                        + exhausted + " exhausted sweeps, " + slowed + " slow calls meanwhile)");
            }
        }
        return new long[] {leftOpen, late};
    }

    /**
     * The sessions of a key never overlap in event time (docs/RELIABILITY.md, invariant I1): every pair of a key's
     * sessions, as they stand at the end, is disjoint.
     *
     * @return the pairs that overlap
     */
    private long overlappingSessions(PipelineStores store, String seed) {
        Map<String, List<WindowState>> byKey = new HashMap<>();
        for (StoredWindow w : store.all()) {
            PipelineConfig p = fanin.pipeline(w.ref().pipeline()).orElseThrow();
            if (w.ref().windowId().startsWith("S") && w.status() != WindowStatus.MERGED) {
                byKey.computeIfAbsent(w.ref().pipeline() + "\u0000" + w.ref().key(), k -> new ArrayList<>()).add(WindowCodec.decode(w, p));
            }
        }
        long overlapping = 0;
        for (List<WindowState> sessions : byKey.values()) {
            sessions.sort(java.util.Comparator.comparingLong(s -> s.bounds().startMillis()));
            for (int i = 1; i < sessions.size(); i++) {
                WindowState before = sessions.get(i - 1);
                WindowState after = sessions.get(i);
                if (before.bounds().overlaps(after.bounds())) {
                    overlapping++;
                    violations.add(seed + "sessions " + before.ref() + " " + before.bounds() + " and " + after.ref() + " " + after.bounds()
                            + " of one key overlap");
                }
            }
        }
        return overlapping;
    }

    private long afterTtl(PipelineStores store, SimClock clock, String seed) {
        long lastTtl = Math.max(store.all().stream().mapToLong(w -> w.expiresAt().toEpochMilli()).max().orElse(clock.millis()),
                store.liveItems().stream().mapToLong(l -> l.expiresAt().toEpochMilli()).max().orElse(clock.millis()));
        for (StoredWindow w : store.all()) {
            PipelineConfig p = fanin.pipeline(w.ref().pipeline()).orElseThrow();
            WindowState s = WindowCodec.decode(w, p);
            // A merged session keeps its own TTL but takes the earlier hard deadline; it was created before the
            // absorbed session's deadline, so at most one lifetime later.
            Instant deadline = s.absorbed().isEmpty() ? s.hardDeadline() : s.hardDeadline().plus(p.triggers().maxLifetime());
            // A time window that kept too-late verdicts before it opened keeps the expiry its first verdict's writer
            // gave it when that is later (WindowMachine#reopened): another worker's clock, so a second skew.
            boolean keptVerdicts = w.eventIds().stream().anyMatch(EventIdDigest::isTooLate);
            Instant latest = deadline.plus(p.allowedLateness()).plus(p.late().correctionDelay()).plus(settings.lease()).plus(p.effectiveRetention())
                    .plus(keptVerdicts ? config.maxSkew().multipliedBy(2) : config.maxSkew());
            if (w.expiresAt().isAfter(latest)) {
                violations.add(seed + "window " + w.ref() + " expires at " + w.expiresAt() + ", later than hard deadline + lateness"
                        + " + correction delay + lease + retention = " + latest);
            }
        }
        clock.advanceTo(lastTtl + 1_000);
        store.expire(clock.instant());
        long left = store.all().size() + store.liveItems().size();
        if (left > 0) {
            violations.add(seed + left + " window items remain after the last TTL");
        }
        for (PipelineConfig p : fanin.pipelines()) {
            // What the sweeps do once every epoch that exists now is retirable (its windows are all long closed):
            // every epoch retires and any slot a crash or a throttled release left behind comes back.
            java.time.Duration epoch = dev.fanin.core.service.AdmissionEpochs.length(p);
            // An epoch is named by the minute it may retire, rounded up: a minute more covers the rounding.
            Instant allRetirable = clock.instant().plus(epoch).plus(epoch).plus(dev.fanin.core.service.AdmissionEpochs.RETIRE_MARGIN)
                    .plus(java.time.Duration.ofMinutes(1));
            store.retireEpochs(p.name(), dev.fanin.core.service.AdmissionEpochs.retirableBefore(allRetirable));
            if (store.openWindows(p.name()) != 0) {
                violations.add(seed + "pipeline " + p.name() + " counts " + store.openWindows(p.name()) + " open windows after the last TTL");
            }
        }
        return left;
    }
}
