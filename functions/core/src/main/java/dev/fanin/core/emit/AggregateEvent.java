package dev.fanin.core.emit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.Retirement;
import dev.fanin.core.text.IsoMillis;
import dev.fanin.core.text.SinkText;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import dev.fanin.core.window.WindowRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The aggregate event of one window revision (schema version "1", {@code schemas/aggregate-v1.json}).
 *
 * <p>Frozen when the revision is claimed: every field is identical across re-emissions of the same revision, except
 * {@code emittedAt}, which {@link #toJson(Instant)} sets at each emission. Times are ISO-8601 UTC with milliseconds;
 * window bounds are event time, {@code openedAt}/{@code closedAt}/{@code emittedAt} processing time.
 *
 * @param ref              the window
 * @param kind             its type
 * @param bounds           its half-open event-time bounds
 * @param revision         0 for the first close; +1 for each correction or size-limit continuation
 * @param corrects         the aggregate id this revision corrects (LATE_CORRECTION), else null
 * @param continues        for a session that continues one cut short (HARD_LIFETIME, SIZE_LIMIT), the
 *                         aggregate id of the cut revision; else null
 * @param closeReason      why the revision closed
 * @param complete         see {@link Completeness#completeOnClose(CloseReason)}
 * @param expected         the expected count, null when unknown
 * @param seen             distinct events counted towards completeness
 * @param missing          missing members (ascending, capped), null when members are not tracked or not known
 * @param missingTruncated more members are missing than listed
 * @param missingCount     events or members missing, null when the expected count is unknown
 * @param aggregations     the {@code aggregations} object
 * @param firstEventTime   earliest event time in the window, null if it holds no event
 * @param lastEventTime    latest event time in the window, null if it holds no event
 * @param openedAt         processing time the window was created
 * @param closedAt         processing time the revision was claimed
 * @param operatorNote     why an operator closed the window (closeReason OPERATOR), else null; emitted only when set
 * @param retired          why the window's pipeline was no longer configured when the revision was claimed (it closed
 *                         under the pipeline's last definition), else null; emitted only when set
 */
public record AggregateEvent(
        WindowRef ref,
        WindowKind kind,
        Interval bounds,
        int revision,
        String corrects,
        String continues,
        CloseReason closeReason,
        boolean complete,
        Integer expected,
        long seen,
        List<Integer> missing,
        boolean missingTruncated,
        Long missingCount,
        ObjectNode aggregations,
        Instant firstEventTime,
        Instant lastEventTime,
        Instant openedAt,
        Instant closedAt,
        String operatorNote,
        Retirement retired) {

    public static final String SCHEMA_VERSION = "1";
    /**
     * An operator note is a sentence or two, of characters every sink takes as they are: so at most three bytes each as
     * JSON, which {@code SizeBudget} counts in the aggregate.
     */
    public static final int MAX_NOTE_CHARS = 1000;
    /** What {@link #isNote} takes. */
    public static final String NOTE_RULE = "the operator note must be 1 to " + MAX_NOTE_CHARS
            + " characters on one line, none a control character, an unpaired surrogate, U+FFFE or U+FFFF";

    public AggregateEvent {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(closeReason, "closeReason");
        Objects.requireNonNull(aggregations, "aggregations");
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(closedAt, "closedAt");
        if (revision < 0) {
            throw new IllegalArgumentException("revision must be >= 0, got " + revision);
        }
        if (corrects != null && revision == 0) {
            throw new IllegalArgumentException("revision 0 cannot correct " + corrects);
        }
        if (operatorNote != null && closeReason != CloseReason.OPERATOR) {
            throw new IllegalArgumentException("an operator note belongs to an OPERATOR close, not " + closeReason);
        }
        if (operatorNote != null && !isNote(operatorNote)) {
            throw new IllegalArgumentException(NOTE_RULE);
        }
        missing = missing == null ? null : List.copyOf(missing);
        aggregations = aggregations.deepCopy();
    }

    /** Whether {@code note} may be an operator note ({@link #NOTE_RULE}). */
    public static boolean isNote(String note) {
        return !note.isBlank() && note.length() <= MAX_NOTE_CHARS && note.chars().noneMatch(Character::isISOControl) && SinkText.isValid(note);
    }

    /** {@link WindowRef#aggregateId(int)} of this revision: stable across re-emissions. */
    public String aggregateId() {
        return ref.aggregateId(revision);
    }

    public static Builder builder(WindowRef ref, WindowKind kind, Interval bounds) {
        return new Builder(ref, kind, bounds);
    }

    /** The event as emitted at {@code emittedAt}. */
    public ObjectNode toJson(Instant emittedAt) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode json = f.objectNode();
        json.put("schemaVersion", SCHEMA_VERSION);
        json.put("aggregateId", aggregateId());
        json.put("corrects", corrects);
        json.put("continues", continues);
        json.put("pipeline", ref.pipeline());
        json.put("key", ref.key());
        json.putObject("window")
                .put("id", ref.windowId())
                .put("type", kind.wireName())
                .put("start", IsoMillis.format(bounds.startMillis()))
                .put("end", IsoMillis.format(bounds.endMillis()));
        json.put("revision", revision);
        json.put("closeReason", closeReason.name());
        json.put("complete", complete);
        putCompleteness(json);
        json.set("aggregations", aggregations.deepCopy());
        json.put("firstEventTime", firstEventTime == null ? null : IsoMillis.format(firstEventTime));
        json.put("lastEventTime", lastEventTime == null ? null : IsoMillis.format(lastEventTime));
        json.put("openedAt", IsoMillis.format(openedAt));
        json.put("closedAt", IsoMillis.format(closedAt));
        json.put("emittedAt", IsoMillis.format(emittedAt));
        if (operatorNote != null) {
            json.put("operatorNote", operatorNote);
        }
        if (retired != null) {
            json.putObject("retired").put("change", retired.change()).put("renamedTo", retired.renamedTo());
        }
        return json;
    }

    /** What the window is known to hold and to miss: {@code expected}, {@code seen} and the {@code missing} list. */
    private void putCompleteness(ObjectNode json) {
        if (expected == null) {
            json.putNull("expected");
        } else {
            json.put("expected", expected);
        }
        json.put("seen", seen);
        if (missing == null) {
            json.putNull("missing");
        } else {
            ArrayNode list = json.putArray("missing");
            missing.forEach(list::add);
        }
        json.put("missingTruncated", missingTruncated);
        if (missingCount == null) {
            json.putNull("missingCount");
        } else {
            json.put("missingCount", missingCount);
        }
    }

    /** Decodes {@link #toJson(Instant)} (ignoring {@code emittedAt}), e.g. the frozen emission kept in window state. */
    public static AggregateEvent fromJson(JsonNode json) {
        JsonNode window = json.path("window");
        WindowRef ref = new WindowRef(json.path("pipeline").textValue(), json.path("key").textValue(), window.path("id").textValue());
        List<Integer> missing = null;
        if (json.path("missing").isArray()) {
            missing = new ArrayList<>();
            for (JsonNode m : json.path("missing")) {
                missing.add(m.intValue());
            }
        }
        return new AggregateEvent(
                ref,
                WindowKind.valueOf(window.path("type").textValue().toUpperCase(java.util.Locale.ROOT)),
                new Interval(IsoMillis.parse(window.path("start").textValue()).toEpochMilli(), IsoMillis.parse(window.path("end").textValue()).toEpochMilli()),
                json.path("revision").intValue(),
                json.path("corrects").textValue(),
                json.path("continues").textValue(),
                CloseReason.valueOf(json.path("closeReason").textValue()),
                json.path("complete").booleanValue(),
                json.path("expected").isNumber() ? json.path("expected").intValue() : null,
                json.path("seen").longValue(),
                missing,
                json.path("missingTruncated").booleanValue(),
                json.path("missingCount").isNumber() ? json.path("missingCount").longValue() : null,
                (ObjectNode) json.path("aggregations"),
                instantOrNull(json.path("firstEventTime")),
                instantOrNull(json.path("lastEventTime")),
                IsoMillis.parse(json.path("openedAt").textValue()),
                IsoMillis.parse(json.path("closedAt").textValue()),
                json.path("operatorNote").textValue(),
                json.path("retired").isObject() ? new Retirement(json.path("retired").path("renamedTo").textValue()) : null);
    }

    private static Instant instantOrNull(JsonNode node) {
        return node.isTextual() ? IsoMillis.parse(node.textValue()) : null;
    }

    /** Assembles an {@link AggregateEvent} from the window's parts. */
    public static final class Builder {

        private final WindowRef ref;
        private final WindowKind kind;
        private final Interval bounds;
        private int revision;
        private String corrects;
        private String continues;
        private CloseReason closeReason;
        private Boolean complete;
        private Completeness completeness;
        private ObjectNode aggregations = JsonNodeFactory.instance.objectNode();
        private Instant firstEventTime;
        private Instant lastEventTime;
        private Instant openedAt;
        private Instant closedAt;
        private String operatorNote;
        private Retirement retired;

        private Builder(WindowRef ref, WindowKind kind, Interval bounds) {
            this.ref = ref;
            this.kind = kind;
            this.bounds = bounds;
        }

        public Builder revision(int revision) {
            this.revision = revision;
            return this;
        }

        /** The aggregate id of the revision this one corrects (a LATE_CORRECTION), or null. */
        public Builder corrects(String previousAggregateId) {
            this.corrects = previousAggregateId;
            return this;
        }

        /** The aggregate id of the cut revision this session continues, or null. */
        public Builder continues(String cutAggregateId) {
            this.continues = cutAggregateId;
            return this;
        }

        public Builder closeReason(CloseReason closeReason) {
            this.closeReason = closeReason;
            return this;
        }

        /** Supplies expected, seen and missing; {@code complete} defaults to {@link Completeness#completeOnClose}. */
        public Builder completeness(Completeness completeness) {
            this.completeness = completeness;
            return this;
        }

        /** Overrides the default {@code complete} flag (e.g. a HOLD policy deciding otherwise). */
        public Builder complete(boolean complete) {
            this.complete = complete;
            return this;
        }

        public Builder aggregations(Aggregates aggregates) {
            this.aggregations = aggregates.toOutput();
            return this;
        }

        public Builder eventTimes(Instant first, Instant last) {
            this.firstEventTime = first;
            this.lastEventTime = last;
            return this;
        }

        public Builder openedAt(Instant openedAt) {
            this.openedAt = openedAt;
            return this;
        }

        public Builder closedAt(Instant closedAt) {
            this.closedAt = closedAt;
            return this;
        }

        /** Why an operator closed the window (an OPERATOR close only). */
        public Builder operatorNote(String note) {
            this.operatorNote = note;
            return this;
        }

        /** Why the window's pipeline is no longer configured (a retired pipeline's window), or null. */
        public Builder retired(Retirement retired) {
            this.retired = retired;
            return this;
        }

        /** @throws NullPointerException when the close reason, completeness, openedAt or closedAt is missing */
        public AggregateEvent build() {
            Objects.requireNonNull(closeReason, "closeReason");
            Objects.requireNonNull(completeness, "completeness");
            List<Integer> missing = completeness.missingMembers().map(Completeness.MissingMembers::members).orElse(null);
            boolean truncated = completeness.missingMembers().map(Completeness.MissingMembers::truncated).orElse(false);
            Long missingCount = completeness.missingCount().isPresent() ? completeness.missingCount().getAsLong() : null;
            boolean isComplete = complete != null ? complete : completeness.completeOnClose(closeReason);
            return new AggregateEvent(ref, kind, bounds, revision, corrects, continues, closeReason, isComplete, completeness.expected(),
                    completeness.seen(), missing, truncated, missingCount, aggregations, firstEventTime, lastEventTime, openedAt, closedAt,
                    operatorNote, retired);
        }
    }
}
