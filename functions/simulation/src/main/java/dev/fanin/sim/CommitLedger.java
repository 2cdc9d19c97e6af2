package dev.fanin.sim;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.machine.Claim;
import dev.fanin.core.machine.WindowCodec;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.window.WindowRef;
import dev.fanin.core.window.WindowStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the store committed, observed write by write (see {@link ObservedStore}): window creations, merges, and
 * each revision commit with the frozen content of the claim it committed. Checks on the spot what one write can
 * violate: at most one commit per aggregate id, revisions committed in order, a TTL after every due time and lease,
 * the count and distinct-ids aggregations agreeing, the committed content emitted before the commit, and the completeness flag following the pipeline's policy.
 */
public final class CommitLedger {

    private static final Set<String> EVENT_TIME_OR_COUNT = Set.of("COUNT", "WATERMARK", "SESSION_GAP");
    private static final Set<String> CUT_SHORT = Set.of("HARD_LIFETIME", "SIZE_LIMIT", "SESSION_LIMIT");

    /** One window's life as committed. */
    public static final class Life {
        final WindowRef ref;
        final long createdAt;
        final Instant hardDeadline;
        boolean merged;
        long firstCloseAt = -1;
        Instant closeDeadline;
        int lastCommitted = -1;
        String lastReason;
        /**
         * The last committed revision of each segment: a revision after the first that corrects nothing (a time
         * window's continuation, after a SIZE_LIMIT split or a revision that closed full) starts one, as consumers add it.
         */
        final List<CommittedRevision> segments = new ArrayList<>();
        /** The first segment of the window's completeness: a SIZE_LIMIT split starts it afresh. */
        int completenessFrom;

        Life(WindowRef ref, long createdAt, Instant hardDeadline) {
            this.ref = ref;
            this.createdAt = createdAt;
            this.hardDeadline = hardDeadline;
        }
    }

    private final FaninConfig config;
    private final Duration lease;
    private final SimClock clock;
    private final Violations violations;
    private final EmissionLog emissions;
    private final Map<WindowRef, Life> windows = new LinkedHashMap<>();
    private final Set<WindowRef> created = new HashSet<>();
    private final Map<String, Integer> commits = new HashMap<>();
    private long revisionsCommitted;
    private long partialFires;

    public CommitLedger(FaninConfig config, Duration lease, SimClock clock, Violations violations, EmissionLog emissions) {
        this.config = config;
        this.emissions = emissions;
        this.lease = lease;
        this.clock = clock;
        this.violations = violations;
    }

    void written(StoredWindow previous, StoredWindow next) {
        PipelineConfig pipeline = config.pipeline(next.ref().pipeline()).orElseThrow();
        if (next.dueAt() != null && next.expiresAt().isBefore(next.dueAt())) {
            violations.add("TTL " + next.expiresAt() + " of " + next.ref() + " is before its due time " + next.dueAt());
        }
        if (next.leaseUntil() != null && next.expiresAt().isBefore(next.leaseUntil())) {
            violations.add("TTL " + next.expiresAt() + " of " + next.ref() + " is before its lease end " + next.leaseUntil());
        }
        if (previous == null && !created.add(next.ref())) {
            violations.add("window " + next.ref() + " created twice (a create must find it absent)");
        }
        // A window's life starts when it opens: a time window stored only for too-late verdicts opens (if ever) when
        // an event in time comes, as a new window.
        if (opens(previous, pipeline)) {
            WindowState s = WindowCodec.decode(next, pipeline);
            if (s.keepsVerdictsOnly()) {
                return;
            }
            Instant minimumTtl = s.hardDeadline().plus(pipeline.allowedLateness()).plus(pipeline.late().correctionDelay()).plus(lease)
                    .plus(pipeline.effectiveRetention());
            if (next.expiresAt().isBefore(minimumTtl)) {
                violations.add("TTL " + next.expiresAt() + " of new window " + next.ref() + " is before hard deadline + lateness"
                        + " + correction delay + lease + retention = " + minimumTtl);
            }
            windows.put(next.ref(), new Life(next.ref(), clock.millis(), s.hardDeadline()));
        }
        if (previous != null && next.expiresAt().isBefore(previous.expiresAt())) {
            violations.add("TTL of " + next.ref() + " moved earlier, from " + previous.expiresAt() + " to " + next.expiresAt());
        }
        Life life = windows.get(next.ref());
        if (life == null) {
            violations.add("write to window " + next.ref() + " that was never created");
            return;
        }
        if (next.status() == WindowStatus.MERGED) {
            life.merged = true;
        }
        if (previous != null && previous.status() == WindowStatus.CLAIMED) {
            WindowState before = WindowCodec.decode(previous, pipeline);
            WindowState after = WindowCodec.decode(next, pipeline);
            if (after.committedRevision() > before.committedRevision()) {
                committed(life, pipeline, before);
                if (after.committedRevision() != before.claim().revision()) {
                    violations.add("commit of " + before.claim().aggregateId() + " recorded committed revision " + after.committedRevision());
                }
            }
        }
    }

    /** Whether a write of a window read as {@code previous} (null: created) can open it. */
    private static boolean opens(StoredWindow previous, PipelineConfig pipeline) {
        return previous == null || (previous.status() == WindowStatus.CLOSED && WindowCodec.decode(previous, pipeline).keepsVerdictsOnly());
    }

    /** A session absorbed by a merge: it leaves its key's live item, its events now counted by the survivor. */
    void merged(WindowRef ref) {
        Life life = windows.get(ref);
        if (life == null) {
            violations.add("merge of window " + ref + " that was never created");
            return;
        }
        life.merged = true;
    }

    private void committed(Life life, PipelineConfig pipeline, WindowState claimed) {
        Claim claim = claimed.claim();
        CommittedRevision c = CommittedRevision.of(claim.emission(), claim.deadLetter());
        revisionsCommitted++;
        if (commits.merge(c.aggregateId(), 1, Integer::sum) > 1) {
            violations.add("revision " + c.aggregateId() + " committed more than once");
        }
        if (c.revision() != life.lastCommitted + 1) {
            violations.add("revision " + c.aggregateId() + " committed after revision " + life.lastCommitted);
        }
        if (c.count() != c.distinct()) {
            violations.add("revision " + c.aggregateId() + " counts " + c.count() + " events but " + c.distinct() + " distinct ids");
        }
        if (c.ids().size() != c.distinct()) {
            violations.add("revision " + c.aggregateId() + " lists " + c.ids().size() + " of " + c.distinct()
                    + " distinct ids: the cap is too small for an exact check");
        }
        // A revision that corrects nothing after the first continues the window (a consumer adds it); a correction
        // replaces the revision before it. The continuation after a SIZE_LIMIT split starts its completeness afresh.
        boolean addsToTheWindow = c.revision() > 0 && !"LATE_CORRECTION".equals(c.reason());
        if (life.segments.isEmpty() || addsToTheWindow) {
            if ("SIZE_LIMIT".equals(life.lastReason)) {
                life.completenessFrom = life.segments.size();
            }
            life.segments.add(c);
        } else {
            life.segments.set(life.segments.size() - 1, c);
        }
        checkCompleteness(pipeline, c, idsOfCompleteness(life));
        if (!c.deadLetter()) {
            // Emit precedes commit: the committed revision was emitted, with exactly the committed content.
            EmissionLog.Emitted e = emissions.byId().get(c.aggregateId());
            if (e == null) {
                violations.add("revision " + c.aggregateId() + " committed but never emitted");
            } else if (!EmissionLog.fingerprint(e).equals(c.fingerprint())) {
                violations.add("revision " + c.aggregateId() + " committed with other content than it was emitted with");
            }
        }
        if (!c.complete()) {
            partialFires++;
        }
        life.lastCommitted = c.revision();
        life.lastReason = c.reason();
        if (c.revision() == 0) {
            life.firstCloseAt = clock.millis();
            life.closeDeadline = claimed.hardDeadline();
        }
    }

    /** The distinct ids counted since the window's completeness began, which a revision's {@code complete} speaks for. */
    private static long idsOfCompleteness(Life life) {
        return life.segments.subList(life.completenessFrom, life.segments.size()).stream().flatMap(r -> r.ids().stream()).distinct().count();
    }

    /** Partial fires only under the configured policy, always flagged; complete only when nothing is missing. */
    private void checkCompleteness(PipelineConfig pipeline, CommittedRevision c, long ids) {
        String id = c.aggregateId();
        IncompletePolicy policy = pipeline.incomplete();
        if (pipeline.knowsCompleteness()) {
            if (c.complete()) {
                if (c.expected() == null || c.missingCount() == null || c.missingCount() != 0) {
                    violations.add(id + " says complete=true with expected=" + c.expected() + " missingCount=" + c.missingCount());
                } else if (ids < c.expected()) {
                    violations.add(id + " says complete=true with " + ids + " events of " + c.expected() + " expected");
                }
            } else {
                if (c.reason().equals("EXPECTED_COMPLETE") || c.reason().equals("SENTINEL")) {
                    violations.add(id + " closed by " + c.reason() + " but flagged complete=false");
                }
                if (policy.mode() == IncompletePolicy.Mode.HOLD && !c.reason().equals("HARD_LIFETIME") && !c.reason().equals("LATE_CORRECTION")) {
                    violations.add(id + " fired incomplete by " + c.reason() + " under the HOLD policy (only the hard lifetime may)");
                }
            }
        } else {
            if (c.complete() && CUT_SHORT.contains(c.reason())) {
                violations.add(id + " cut short by " + c.reason() + " but flagged complete=true");
            }
            if (!c.complete() && EVENT_TIME_OR_COUNT.contains(c.reason())) {
                violations.add(id + " closed by " + c.reason() + " (nothing can be missing) but flagged complete=false");
            }
        }
        boolean deadLetterAllowed = policy.mode() == IncompletePolicy.Mode.HOLD && policy.atDeadline() == IncompletePolicy.AtDeadline.DEAD_LETTER;
        if (c.deadLetter() && !deadLetterAllowed) {
            violations.add(id + " dead-lettered although the policy is " + policy);
        }
    }

    public Map<WindowRef, Life> windows() {
        return windows;
    }

    public Map<String, Integer> commits() {
        return commits;
    }

    public long revisionsCommitted() {
        return revisionsCommitted;
    }

    public long partialFires() {
        return partialFires;
    }
}
