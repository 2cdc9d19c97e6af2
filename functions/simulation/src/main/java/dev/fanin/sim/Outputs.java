package dev.fanin.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.SideOutput;
import dev.fanin.core.text.ExactJson;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The late-event side output and the dead-letter queues as the simulation sees them: which event identities ended
 * there, and with which reason. Dead-lettered messages are mapped back to the identities they carried through the
 * simulation's own knowledge of the message (ground truth), since fanin dead-letters whole messages.
 */
public final class Outputs implements SideOutput, DeadLetters {


    private final Function<String, SimMessage> inFlight;
    private final Violations violations;
    private final long onTimeMillis;
    private final Set<Identity> late = new HashSet<>();
    /** Per identity in the late side output, the window its record names and when it was sent there (true time). */
    private final Map<Identity, Sent> lateRecords = new java.util.HashMap<>();
    private final java.util.function.LongSupplier clock;
    private final Set<Identity> dead = new HashSet<>();
    private final Map<String, Integer> reasons = new TreeMap<>();
    private final java.util.function.ToIntFunction<String> receiveCount;
    private final int maxReceiveCount;
    private long sideRecords;
    private long deadLetters;

    /** One side-output record of an event: its kind, the window it names and when it was written (ms). */
    public record Sent(String kind, String windowId, long atMillis) { }

    /**
     * @param inFlight     the message (still in the queue) with a given id, or null
     * @param clock        the simulation's true time (ms)
     * @param onTimeMillis the longest an event the producers send on time (not late, not very late) takes from its
     *                     event time to its first delivery, clock skew included: such an event is on time in event
     *                     order, so it must never end in the late side output (issue 17)
     * @param receiveCount how often the queue has handed out a message (-1 once deleted): a RETRIES_EXHAUSTED dead
     *                     letter must come at {@code maxReceiveCount}
     */
    public Outputs(Function<String, SimMessage> inFlight, Violations violations, java.util.function.LongSupplier clock, long onTimeMillis,
                   java.util.function.ToIntFunction<String> receiveCount, int maxReceiveCount) {
        this.inFlight = inFlight;
        this.violations = violations;
        this.clock = clock;
        this.onTimeMillis = onTimeMillis;
        this.receiveCount = receiveCount;
        this.maxReceiveCount = maxReceiveCount;
    }

    @Override
    public void send(String kind, String pipeline, String json) {
        sideRecords++;
        JsonNode n;
        try {
            n = ExactJson.read(json);
        } catch (JsonProcessingException e) {
            violations.add("side output record of kind " + kind + " is not JSON: " + e.getMessage());
            return;
        }
        String reason = n.path("reason").asText("");
        if (reason.isBlank() || !n.path("reasonCode").isTextual() || !reason.startsWith(n.path("reasonCode").asText() + ":")) {
            violations.add("side output record of kind " + kind + " carries no reason code and reason: " + json);
        }
        switch (kind) {
            case "LATE_EVENT", "WINDOW_FULL" -> {
                Identity id = new Identity(n.path("pipeline").asText(), n.path("key").asText(), n.path("eventId").asText());
                late.add(id);
                lateRecords.putIfAbsent(id, new Sent(kind, n.path("windowId").asText(), clock.getAsLong()));
                reasons.merge(kind + " " + reason.split(":")[0], 1, Integer::sum);
                long delay = clock.getAsLong() - java.time.Instant.parse(n.path("eventTime").asText()).toEpochMilli();
                if (kind.equals("LATE_EVENT") && delay <= onTimeMillis) {
                    violations.add("event " + n.path("eventId").asText() + " of " + n.path("pipeline").asText() + " key " + n.path("key").asText()
                            + " came " + delay + " ms after it happened (on time) but went to the side output: " + reason);
                }
            }
            case "WINDOW_DEAD_LETTERED" -> {
                for (JsonNode id : n.path("aggregate").path("aggregations").path(SimPipelines.IDS).path("ids")) {
                    dead.add(new Identity(n.path("pipeline").asText(), n.path("key").asText(), id.asText()));
                }
                reasons.merge(kind, 1, Integer::sum);
            }
            default -> violations.add("side output record of unknown kind " + kind);
        }
    }

    @Override
    public void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        deadLetters++;
        if (reason == null || code == null || code.isBlank()
                || !java.util.Arrays.stream(code.split(",")).allMatch(c -> reason.contains(c + ": "))) {
            violations.add("message " + messageId + " dead-lettered without a reason code and reason: " + code + " / " + reason);
        }
        deadLettered(messageId, reason == null ? "" : reason);
    }

    /** SQS moved a message to the dead-letter queue after maxReceiveCount receives (its reason is that count). */
    public void redriven(String messageId, SimMessage message) {
        deadLetters++;
        for (Identity id : message.identities()) {
            dead.add(id);
        }
        reasons.merge("SQS_REDRIVE", 1, Integer::sum);
    }

    private void deadLettered(String messageId, String reason) {
        int received = receiveCount.applyAsInt(messageId);
        if (reason.startsWith("RETRIES_EXHAUSTED") && received >= 0 && received < maxReceiveCount) {
            violations.add("message " + messageId + " dead-lettered as " + reason + " on its receive " + received
                    + " of maxReceiveCount " + maxReceiveCount + ": a retryable failure must be retried");
        }
        SimMessage m = inFlight.apply(messageId);
        if (m == null) {
            violations.add("dead letter for message " + messageId + " that is not in flight");
            return;
        }
        dead.addAll(m.identities());
        String head = reason.split(":")[0];
        if (head.equals("RETRIES_EXHAUSTED")) {
            String[] parts = reason.split(":");
            head = head + ":" + (parts.length > 1 ? parts[1].trim() : "");
        }
        reasons.merge(head, 1, Integer::sum);
    }

    public Set<Identity> late() {
        return late;
    }

    public Map<Identity, Sent> lateRecords() {
        return lateRecords;
    }

    public Set<Identity> dead() {
        return dead;
    }

    public Map<String, Integer> reasons() {
        return reasons;
    }

    public long sideRecords() {
        return sideRecords;
    }

    public long deadLetters() {
        return deadLetters;
    }
}
