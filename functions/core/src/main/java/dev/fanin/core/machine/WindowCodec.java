package dev.fanin.core.machine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.aggregate.Aggregates;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.StoredWindow;
import dev.fanin.core.text.ExactJson;
import dev.fanin.core.trigger.Completeness;
import dev.fanin.core.window.CloseReason;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.WindowKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps a {@link WindowState} to the store's {@link StoredWindow} and back. The fields the store must understand
 * (status, version, due time, TTL, fence, lease, event ids) are typed; the rest is one compact JSON document whose
 * field names are short because every write pays for its bytes. Numbers are read back exactly ({@link ExactJson}): a
 * frozen emission or a sample holding {@code 12345678901234567890.75} decodes to that number, not to a double.
 *
 * <p>The document is versioned ({@code "v"}): {@link #encode} writes {@link #STATE_VERSION}, {@link #decode} has one
 * decoder per version it reads (a state written before the field existed is version 1), and refuses a newer one by
 * name, so a rollback never misreads a window a newer fanin wrote. A change of the document's meaning is a new
 * version with its own decoder; an added optional field is not.
 */
public final class WindowCodec {

    /** The state version {@link #encode} writes. */
    public static final int STATE_VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private WindowCodec() {
    }

    public static StoredWindow encode(WindowState s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("v", STATE_VERSION);
        n.put("k", s.kind().name());
        n.put("s", s.bounds().startMillis());
        n.put("e", s.bounds().endMillis());
        n.put("r", s.revision());
        n.put("cr", s.committedRevision());
        n.set("a", s.aggregates().toState());
        n.set("c", s.completeness().toJson());
        n.put("n", s.revisionEvents());
        n.put("o", s.openedAt().toEpochMilli());
        n.put("d", s.hardDeadline().toEpochMilli());
        putEventTimes(n, s);
        if (s.timer() != null) {
            n.put("t", s.timer().armedFor().toEpochMilli());
            n.put("ti", s.timer().id());
        }
        if (s.claim() != null) {
            putClaim(n.putObject("cl"), s.claim());
        }
        putOptionalFacts(n, s);
        return new StoredWindow(s.ref(), s.version(), s.status(), s.dueAt(), s.expiresAt(), s.fence(), s.leaseUntil(),
                s.eventIds(), ExactJson.write(n), s.layout());
    }

    private static void putEventTimes(ObjectNode n, WindowState s) {
        putInstant(n, "f", s.firstEventTime());
        putInstant(n, "l", s.lastEventTime());
        if (!java.util.Objects.equals(s.lastTakenTime(), s.lastEventTime())) {
            // Written only where it differs (a sentinel that does not count came last, or a split reset "l").
            putInstant(n, "lt", s.lastTakenTime());
        }
        putInstant(n, "la", s.lastArrival());
        putInstant(n, "p", s.pendingSince());
    }

    private static void putClaim(ObjectNode c, Claim claim) {
        c.put("r", claim.revision());
        c.put("why", claim.reason().name());
        c.put("ok", claim.complete());
        c.put("dl", claim.deadLetter());
        c.set("em", claim.emission());
    }

    /** What only some windows have (absorbed sessions, late events, a continuation, a cut, an unemitted close, a time window's close), written only then. */
    private static void putOptionalFacts(ObjectNode n, WindowState s) {
        if (!s.absorbed().isEmpty()) {
            ArrayNode ab = n.putArray("ab");
            s.absorbed().forEach(ab::add);
        }
        if (s.lateEvents() > 0) {
            n.put("le", s.lateEvents());
        }
        if (s.continues() != null) {
            n.put("co", s.continues());
        }
        if (s.cutBy() != null) {
            n.put("cut", s.cutBy().name());
        }
        if (!s.admitted().equals(new Admitted(s.openedAt(), s.hardDeadline()))) {
            n.put("ao", s.admitted().openedAt().toEpochMilli());
            n.put("ad", s.admitted().hardDeadline().toEpochMilli());
        }
        if (s.closedUnemitted() != null) {
            n.put("cu", s.closedUnemitted().name());
        }
        if (s.closedBy() != null) {
            n.put("cb", s.closedBy().name());
        }
        if (s.committedDeadLettered()) {
            n.put("cd", true);
        }
    }

    public static WindowState decode(StoredWindow w, PipelineConfig config) {
        JsonNode n;
        try {
            n = ExactJson.read(w.state());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("window " + w.ref() + " has unreadable state: " + e.getOriginalMessage(), e);
        }
        int version = n.path("v").asInt(1);
        return switch (version) {
            case 1 -> decodeVersion1(w, n, config);
            default -> throw new IllegalStateException("window " + w.ref() + " has state version " + version
                    + "; this fanin reads versions up to " + STATE_VERSION + ": run the fanin that wrote it");
        };
    }

    /** Version 1: the fields {@link #encode} writes. */
    private static WindowState decodeVersion1(StoredWindow w, JsonNode n, PipelineConfig config) {
        Claim claim = null;
        JsonNode c = n.path("cl");
        if (c.isObject()) {
            claim = new Claim(c.path("r").intValue(), CloseReason.valueOf(c.path("why").textValue()), c.path("ok").booleanValue(),
                    c.path("dl").booleanValue(), (ObjectNode) c.path("em"));
        }
        List<String> absorbed = new ArrayList<>();
        n.path("ab").forEach(x -> absorbed.add(x.textValue()));
        Lifecycle lifecycle = new Lifecycle(w.status(), w.version(), w.fence(), w.leaseUntil(), claim, n.path("r").intValue(),
                n.path("cr").intValue(), reason(n, "cu"), reason(n, "cb"), n.path("cd").asBoolean(false));
        Schedule schedule = new Schedule(w.dueAt(), n.path("t").isNumber() ? new TimerChain(n.path("ti").longValue(), instant(n, "t")) : null,
                Instant.ofEpochMilli(n.path("o").longValue()), Instant.ofEpochMilli(n.path("d").longValue()), w.expiresAt(), instant(n, "p"),
                n.has("ao") ? new Admitted(instant(n, "ao"), instant(n, "ad")) : null);
        Contents contents = new Contents(new Interval(n.path("s").longValue(), n.path("e").longValue()), w.eventIds(),
                Aggregates.fromState(config.aggregations(), n.path("a")), Completeness.fromJson(config, n.path("c")), n.path("n").longValue(),
                n.path("le").longValue());
        EventTimes times = new EventTimes(instant(n, "f"), instant(n, "l"), n.has("lt") ? instant(n, "lt") : instant(n, "l"), instant(n, "la"));
        Lineage lineage = new Lineage(absorbed, n.path("co").textValue(),
                n.path("cut").isTextual() ? CloseReason.valueOf(n.path("cut").textValue()) : null);
        return new WindowState(w.ref(), WindowKind.valueOf(n.path("k").textValue()), lifecycle, schedule, contents, times, lineage, w.layout());
    }

    private static void putInstant(ObjectNode n, String field, Instant value) {
        if (value != null) {
            n.put(field, value.toEpochMilli());
        }
    }

    private static CloseReason reason(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isTextual() ? CloseReason.valueOf(v.textValue()) : null;
    }

    private static Instant instant(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isNumber() ? Instant.ofEpochMilli(v.longValue()) : null;
    }
}
