package dev.fanin.core.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.ExpectedSpec;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SentinelSpec;
import dev.fanin.core.config.ValueRef;
import dev.fanin.core.event.Event;
import dev.fanin.core.window.CloseReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * What a window revision knows about its own completeness. Immutable; {@link #observe} returns a new value.
 *
 * <p>The expected count comes from the static configuration, from an event's {@code countPath}, or from the
 * sentinel's {@code expectedCount}, whichever is known first; a later event that disagrees (or carries an unusable
 * count) does not change it and is counted in {@link #conflicts()}.
 *
 * <p>Members (with {@code memberPath}) are kept as a sorted set bounded by {@link #MAX_MEMBERS}: a member outside
 * {@code [firstMember, firstMember + MAX_MEMBERS)}, or an event whose member is absent or not an integer, is ignored
 * and counted in {@link #ignoredMembers()}; only those within {@code [firstMember, firstMember + expected)} count. When the expected count exceeds {@link #MAX_MEMBERS},
 * completeness falls back to the seen count and missing members are not listed.
 *
 * <p>A pipeline with neither an expected count nor a sentinel has {@code known() == false}: its windows are never
 * "complete" here; the aggregate then reports {@code complete=true} for every close by an event-time trigger or count
 * (docs/SEMANTICS.md, "Completeness").
 *
 * <p>{@code observe} counts every call in {@link #seen()}: callers observe each distinct event (new digest) once.
 *
 * @param rules          what the pipeline's configuration says about completeness
 * @param learned        the expected count learned from an event (count path, sentinel), or null: kept whatever the
 *                       configuration says, so a change and its rollback lose nothing ({@link #expected()} decides)
 * @param members        distinct member numbers seen, ascending, within {@code [firstMember, firstMember +
 *                       MAX_MEMBERS)} of the configuration in force (those beyond the expected count kept, not counted)
 * @param ignoredMembers events whose member was out of range, absent or not an integer
 * @param sentinelSeen   whether the sentinel event has arrived
 * @param seen           distinct events observed that count as events (a sentinel may not count)
 * @param conflicts      events carrying an expected count that disagreed with the known one or was unusable
 * @param cutShort       a revision of the window was closed before anything said it was over (HARD_LIFETIME,
 *                       SIZE_LIMIT, SESSION_LIMIT, OPERATOR), so a correction of it is cut short too
 */
public record Completeness(Rules rules, Integer learned, List<Integer> members, long ignoredMembers, boolean sentinelSeen,
                           long seen, long conflicts, boolean cutShort) {

    /** The most members one window tracks. */
    public static final int MAX_MEMBERS = ConfigDefaults.MOST_MEMBERS_TRACKED;

    /** The most missing members an aggregate lists. */
    public static final int MAX_MISSING_LISTED = ConfigDefaults.MOST_MISSING_LISTED;

    public Completeness {
        Objects.requireNonNull(rules, "rules");
        members = List.copyOf(members);
    }

    /**
     * The pipeline's completeness rules, derived from its configuration (never stored).
     *
     * @param known             the pipeline has an expected count or a sentinel
     * @param staticCount       the configured expected count, or null
     * @param learnsCount       events may carry the expected count ({@code countPath}, a sentinel's {@code expectedCount})
     * @param tracksMembers     a {@code memberPath} is configured
     * @param firstMember       the lowest member number
     * @param sentinelCompletes a sentinel is configured and carries no expected count, so its arrival completes
     */
    public record Rules(boolean known, Integer staticCount, boolean learnsCount, boolean tracksMembers, int firstMember,
                        boolean sentinelCompletes) {

        public static Rules of(PipelineConfig config) {
            ExpectedSpec expected = config.triggers().expected();
            SentinelSpec sentinel = config.triggers().sentinel();
            return new Rules(
                    config.knowsCompleteness(),
                    expected == null ? null : expected.count(),
                    expected != null && expected.countPath() != null || sentinel != null && sentinel.expectedCount() != null,
                    expected != null && expected.memberPath() != null,
                    expected == null ? 0 : expected.firstMember(),
                    sentinel != null && sentinel.expectedCount() == null);
        }

        /**
         * The expected count of a window under these rules, given the one it learned: the configured count when there is
         * one (it is known before any event, so it wins), else the count the window learned from its events, if these
         * rules still learn counts. So a window open when the configuration changes follows the new count, and one
         * whose pipeline no longer expects a count stops waiting for it.
         */
        Integer expectedGiven(Integer learned) {
            return staticCount != null ? staticCount : learnsCount ? learned : null;
        }
    }

    /** A window that has observed nothing: the expected count is the static one, if configured. */
    public static Completeness initial(PipelineConfig config) {
        return new Completeness(Rules.of(config), null, List.of(), 0, false, 0, 0, false);
    }

    /** The expected count under the configuration in force, or null while unknown ({@link Rules#expectedGiven}). */
    public Integer expected() {
        return rules.expectedGiven(learned);
    }

    /** The completeness after one more distinct event. */
    public Completeness observe(PipelineConfig config, Event event) {
        SentinelSpec sentinelSpec = config.triggers().sentinel();
        boolean isSentinel = sentinelSpec != null && EventValues.matches(sentinelSpec.when(), event);
        Integer known = expected();
        Integer nextLearned = learned;
        long nextConflicts = conflicts;
        for (OptionalLong offered : offeredCounts(config, event, isSentinel)) {
            boolean usable = offered.isPresent() && offered.getAsLong() >= 0 && offered.getAsLong() <= Integer.MAX_VALUE;
            if (!usable || known != null && known != offered.getAsLong()) {
                nextConflicts++;
            } else {
                known = (int) offered.getAsLong();
                nextLearned = nextLearned == null ? known : nextLearned;
            }
        }
        boolean countsAsEvent = !isSentinel || sentinelSpec.countsAsEvent();
        TreeSet<Integer> nextMembers = new TreeSet<>(members);
        long nextIgnored = ignoredMembers;
        if (countsAsEvent && rules.tracksMembers() && !addMember(nextMembers, config, event)) {
            nextIgnored++;
        }
        return new Completeness(rules, nextLearned, new ArrayList<>(nextMembers), nextIgnored,
                sentinelSeen || isSentinel, countsAsEvent ? seen + 1 : seen, nextConflicts, cutShort);
    }

    /** The expected counts {@code event} offers: from a sentinel configured to carry one, and from the count path. */
    private static List<OptionalLong> offeredCounts(PipelineConfig config, Event event, boolean isSentinel) {
        SentinelSpec sentinelSpec = config.triggers().sentinel();
        ExpectedSpec expectedSpec = config.triggers().expected();
        List<OptionalLong> offered = new ArrayList<>(2);
        if (isSentinel && sentinelSpec.expectedCount() != null) {
            // The sentinel is configured to carry the count: missing it is a conflict, so the gap is visible.
            offered.add(EventValues.integer(sentinelSpec.expectedCount(), event));
        }
        if (expectedSpec != null && expectedSpec.countPath() != null) {
            // Events may or may not carry the count; only a present but unusable value is a conflict.
            ValueRef countRef = ValueRef.of(expectedSpec.countPath());
            if (EventValues.text(countRef, event).isPresent()) {
                offered.add(EventValues.integer(countRef, event));
            }
        }
        return offered;
    }

    /**
     * Adds the member {@code event} names to {@code into}; false when it names none a window can track (it is ignored).
     * A member beyond the expected count is kept and not counted ({@link #membersInRange}), so the members do not
     * depend on the order events came in, nor on the count in force when each came.
     */
    private boolean addMember(TreeSet<Integer> into, PipelineConfig config, Event event) {
        OptionalLong member = EventValues.integer(ValueRef.of(config.triggers().expected().memberPath()), event);
        if (member.isPresent() && trackable(rules, member.getAsLong())) {
            into.add((int) member.getAsLong());
            return true;
        }
        return false;
    }

    /**
     * Drops the members outside what a window can track under these rules, {@code [firstMember, firstMember +
     * MAX_MEMBERS)}, which bounds its state (a changed firstMember renumbers the members); returns how many. Members
     * beyond the expected count stay: a count lowered, learned or configured, and raised again counts them again.
     */
    private static int dropUntrackable(Rules rules, TreeSet<Integer> members) {
        int before = members.size();
        members.removeIf(m -> !trackable(rules, m));
        return before - members.size();
    }

    /** Whether a window tracks {@code member} under {@code rules}: within {@code [firstMember, firstMember + MAX_MEMBERS)}. */
    private static boolean trackable(Rules rules, long member) {
        return member >= rules.firstMember() && member < (long) rules.firstMember() + MAX_MEMBERS;
    }

    /** Whether the members are what decides completeness: tracked, and few enough to track. */
    private boolean decidesByMembers() {
        Integer expected = expected();
        return rules.tracksMembers() && expected != null && expected <= MAX_MEMBERS;
    }

    /** The members seen within {@code [firstMember, firstMember + expected)}; asked only when members decide. */
    private long membersInRange() {
        long first = rules.firstMember();
        long end = first + expected();
        return members.stream().filter(m -> m >= first && m < end).count();
    }

    /** The expected count is known and reached (all members seen, with {@code memberPath}). */
    public boolean expectedReached() {
        Integer expected = expected();
        if (expected == null) {
            return false;
        }
        return decidesByMembers() ? membersInRange() >= expected : seen >= expected;
    }

    /** A sentinel without an expected count has arrived, which alone completes the window. */
    public boolean sentinelCompleted() {
        return rules.sentinelCompletes() && sentinelSeen;
    }

    /** Complete by expected count or by a count-less sentinel. Always false when {@code rules().known()} is false. */
    public boolean isComplete() {
        return expectedReached() || sentinelCompleted();
    }

    /**
     * The {@code complete} flag of an aggregate closed for {@code reason}. A pipeline that knows completeness reports
     * {@link #isComplete()}. One that does not (no expected count, no sentinel) has nothing to miss: its aggregate is
     * complete when closed by count, by event time (WATERMARK, SESSION_GAP) or as a correction of such a close, and
     * incomplete when cut short by HARD_LIFETIME, SIZE_LIMIT or an OPERATOR, or as a correction of such a close
     * ({@link #cutShort()}, set by {@link #closedBy}).
     */
    public boolean completeOnClose(CloseReason reason) {
        if (rules.known()) {
            return isComplete();
        }
        return switch (reason) {
            case COUNT, WATERMARK, SESSION_GAP -> true;
            case LATE_CORRECTION -> !cutShort;
            case EXPECTED_COMPLETE, SENTINEL, HARD_LIFETIME, SIZE_LIMIT, SESSION_LIMIT, OPERATOR -> false;
        };
    }

    /** This completeness once a revision is claimed for {@code reason}: a close that cuts the window short is kept. */
    public Completeness closedBy(CloseReason reason) {
        boolean cuts = switch (reason) {
            case HARD_LIFETIME, SIZE_LIMIT, SESSION_LIMIT, OPERATOR -> true;
            case EXPECTED_COMPLETE, SENTINEL, COUNT, WATERMARK, SESSION_GAP, LATE_CORRECTION -> false;
        };
        return cuts && !cutShort
                ? new Completeness(rules, learned, members, ignoredMembers, sentinelSeen, seen, conflicts, true)
                : this;
    }

    /** How many expected events (or members) are missing; 0 when complete; empty while the expected count is unknown. */
    public OptionalLong missingCount() {
        if (isComplete()) {
            return OptionalLong.of(0);
        }
        Integer expected = expected();
        if (expected == null) {
            return OptionalLong.empty();
        }
        long have = decidesByMembers() ? membersInRange() : seen;
        return OptionalLong.of(Math.max(0, expected - have));
    }

    /**
     * The missing members, ascending, at most {@link #MAX_MISSING_LISTED}; none when the window is complete (as
     * {@link #missingCount}); empty when members are not known.
     */
    public Optional<MissingMembers> missingMembers() {
        if (!decidesByMembers()) {
            return Optional.empty();
        }
        if (isComplete()) {
            // Complete by a sentinel too (one without expectedCount alone completes the window): nothing is missing.
            return Optional.of(new MissingMembers(List.of(), false));
        }
        List<Integer> missing = new ArrayList<>();
        int next = 0;
        boolean truncated = false;
        int expected = expected();
        for (int m = rules.firstMember(); m < rules.firstMember() + expected; m++) {
            while (next < members.size() && members.get(next) < m) {
                next++;
            }
            if (next < members.size() && members.get(next) == m) {
                continue;
            }
            if (missing.size() == MAX_MISSING_LISTED) {
                truncated = true;
                break;
            }
            missing.add(m);
        }
        return Optional.of(new MissingMembers(missing, truncated));
    }

    /** @param members ascending, at most {@link #MAX_MISSING_LISTED}; @param truncated more are missing than listed */
    public record MissingMembers(List<Integer> members, boolean truncated) {

        public MissingMembers {
            members = List.copyOf(members);
        }
    }

    /**
     * The stored form: {@code {"e":64,"m":[[0,12],[14,14]],"im":0,"s":false,"n":13,"c":0}} (members as ranges), with
     * {@code "e"} only for a count learned from events (a configured one is read from the configuration in force), and
     * {@code "x":true} once cut short.
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        if (learned != null) {
            json.put("e", learned);
        }
        ArrayNode ranges = json.putArray("m");
        int i = 0;
        while (i < members.size()) {
            int j = i;
            while (j + 1 < members.size() && members.get(j + 1) == members.get(j) + 1) {
                j++;
            }
            ranges.addArray().add(members.get(i)).add(members.get(j));
            i = j + 1;
        }
        json.put("im", ignoredMembers);
        json.put("s", sentinelSeen);
        json.put("n", seen);
        json.put("c", conflicts);
        if (cutShort) {
            json.put("x", true);
        }
        return json;
    }

    /**
     * Decodes {@link #toJson()} under the configuration in force, whose rules decide the expected count
     * ({@link #expected()}). A state stored before only learned counts were stored holds the configured one in
     * {@code "e"} too, read as learned: the configured count in force replaces it whenever there is one.
     */
    public static Completeness fromJson(PipelineConfig config, JsonNode json) {
        Rules rules = Rules.of(config);
        JsonNode e = json.path("e");
        TreeSet<Integer> members = new TreeSet<>();
        for (JsonNode range : json.path("m")) {
            // long: a range ending at Integer.MAX_VALUE (stored under an older, wider firstMember) must end the loop.
            for (long m = range.get(0).intValue(); m <= range.get(1).intValue(); m++) {
                members.add((int) m);
            }
        }
        int untrackable = dropUntrackable(rules, members);
        return new Completeness(rules, e.isNull() || e.isMissingNode() ? null : e.intValue(), new ArrayList<>(members),
                json.path("im").longValue() + untrackable, json.path("s").booleanValue(), json.path("n").longValue(),
                json.path("c").longValue(), json.path("x").booleanValue());
    }

    /**
     * The completeness of two merged sessions: the first learned expected count (a disagreement counts as a conflict),
     * the union of members (those beyond the expected count kept and not counted, as any), the sum of seen counts, and a
     * sentinel if either saw one.
     */
    public Completeness mergedWith(Completeness other) {
        Integer mergedLearned = learned != null ? learned : other.learned;
        long mergedConflicts = conflicts + other.conflicts
                + (learned != null && other.learned != null && !learned.equals(other.learned) ? 1 : 0);
        TreeSet<Integer> union = new TreeSet<>(members);
        union.addAll(other.members);
        long ignored = ignoredMembers + other.ignoredMembers + dropUntrackable(rules, union);
        return new Completeness(rules, mergedLearned, new ArrayList<>(union), ignored,
                sentinelSeen || other.sentinelSeen, seen + other.seen, mergedConflicts, cutShort || other.cutShort);
    }
}
