package dev.fanin.core.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.Bounds;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.event.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns deliveries into events: size guard, strict parse, pipeline selection, extraction. Built once per
 * configuration; immutable and thread-safe; {@link #parse} never throws.
 *
 * <p><b>Pipeline selection.</b> Pipelines are tried in configuration order. Each reads the body with its own
 * envelope; when the envelope fits and the pipeline's match rule holds on the payload (and envelope), the pipeline
 * is chosen. For S3 notifications each record is matched on its own, and only against pipelines of the envelope kind
 * that matched first, so one notification never splits across envelope kinds. When nothing matches, intake explains
 * why: an envelope whose content is unusable (an SNS Message that is not JSON) is reported as such; a pipeline whose
 * rule would hold if the body were read with another envelope gives {@code ENVELOPE_MISMATCH}; otherwise
 * {@code NO_MATCHING_PIPELINE} says what envelope the message looks like.
 *
 * <p><b>Size.</b> {@code bounds.maxPayloadBytes} is measured on the message body as received (UTF-8), envelope included:
 * a body over the largest bound of any pipeline is refused before parsing, and over the chosen pipeline's own bound
 * after selection.
 */
public final class MessageIntake {

    /** Probed in this order when looking for an envelope mismatch: most specific shape first, RAW (always fits) last. */
    private static final List<Envelope> MISMATCH_PROBE_ORDER = List.of(Envelope.S3, Envelope.SNS, Envelope.EVENTBRIDGE, Envelope.RAW);

    private final List<PipelineConfig> pipelines;
    private final int maxBodyBytes;
    private final StrictJson json;
    private final EnvelopeReader envelopes;

    public MessageIntake(FaninConfig config) {
        this.pipelines = config.pipelines();
        this.maxBodyBytes = pipelines.stream().map(PipelineConfig::bounds).mapToInt(Bounds::maxPayloadBytes).max().orElse(0);
        this.json = new StrictJson(maxBodyBytes);
        this.envelopes = new EnvelopeReader(json);
    }

    /** Parses one message. Never throws: an unexpected failure becomes a rejection with reason INTERNAL_ERROR. */
    public IntakeResult parse(InboundMessage message) {
        try {
            return parseGuarded(message);
        } catch (IntakeFailure f) {
            return IntakeResult.rejectedWhole(f.reason(), f.detail(), null);
        } catch (RuntimeException | StackOverflowError e) {
            return IntakeResult.rejectedWhole(RejectionReason.INTERNAL_ERROR,
                    e.getClass().getName() + ": " + Details.quote(String.valueOf(e.getMessage())), null);
        }
    }

    private IntakeResult parseGuarded(InboundMessage message) {
        String body = message.body();
        if (body == null) {
            return IntakeResult.rejectedWhole(RejectionReason.MALFORMED_JSON, "body is absent", null);
        }
        int bodyBytes = Scalars.utf8Length(body);
        if (bodyBytes > maxBodyBytes) {
            return IntakeResult.rejectedWhole(RejectionReason.PAYLOAD_TOO_LARGE, "body is " + bodyBytes
                    + " UTF-8 bytes, over the largest maxPayloadBytes of any pipeline (" + maxBodyBytes + "); it starts with " + Details.quote(body), null);
        }
        JsonNode root = json.parse(body, "body");
        if (!root.isObject()) {
            return IntakeResult.rejectedWhole(RejectionReason.NOT_A_JSON_OBJECT,
                    "body is " + Details.kind(root) + " " + Details.value(root) + ", expected a JSON object", null);
        }
        Selection selection = select(root);
        if (selection.ignored != null) {
            return new IntakeResult(List.of(), List.of(), List.of(selection.ignored));
        }
        if (selection.kind == null) {
            return explainNoMatch(root, selection.problem);
        }
        List<Event> accepted = new ArrayList<>();
        List<Rejected> rejected = new ArrayList<>();
        for (int i = 0; i < selection.units.size(); i++) {
            Unwrapping.Unit unit = selection.units.get(i);
            PipelineConfig pipeline = selection.chosen.get(i);
            if (unit.kind() == Envelope.S3 && !EnvelopeReader.isS3Record(unit.payload())) {
                rejected.add(new Rejected(RejectionReason.NOT_AN_S3_RECORD, "record " + unit.recordIndex() + " is "
                        + (unit.payload().isObject() ? "from eventSource " + Details.value(unit.payload().path("eventSource"))
                        : Details.kind(unit.payload()) + " " + Details.value(unit.payload())) + ", expected \"aws:s3\"", null, unit.recordIndex()));
                continue;
            }
            if (pipeline == null) {
                rejected.add(new Rejected(RejectionReason.NO_MATCHING_PIPELINE, "record " + unit.recordIndex()
                        + " (" + Details.value(unit.payload().path("s3").path("object").path("key")) + ") matches no pipeline with envelope "
                        + selection.kind + " while other records of the message do", null, unit.recordIndex()));
                continue;
            }
            try {
                accepted.add(extract(pipeline, unit, message, bodyBytes));
            } catch (IntakeFailure f) {
                rejected.add(new Rejected(f.reason(), f.detail(), pipeline.name(), unit.recordIndex()));
            }
        }
        return new IntakeResult(accepted, rejected, List.of());
    }

    /** The pipeline chosen for each payload unit, or why none was. */
    private static final class Selection {
        Envelope kind;
        List<Unwrapping.Unit> units = List.of();
        List<PipelineConfig> chosen = List.of();
        Ignored ignored;
        Unwrapping.Broken problem;
    }

    private Selection select(JsonNode root) {
        Map<Envelope, Unwrapping> readings = new EnumMap<>(Envelope.class);
        Selection selection = new Selection();
        // S3's test event is ignored whenever an s3 pipeline could have been its target, also when a pipeline of
        // another envelope comes first and would read it (an sns pipeline reads S3 -> SNS deliveries as notifications).
        Optional<PipelineConfig> s3 = pipelines.stream().filter(p -> p.envelope() == Envelope.S3).findFirst();
        if (s3.isPresent() && readings.computeIfAbsent(Envelope.S3, kind -> envelopes.unwrap(root, kind)) instanceof Unwrapping.TestEvent test) {
            selection.ignored = new Ignored(IgnoreReason.S3_TEST_EVENT, test.detail(), s3.get().name(), Rejected.WHOLE_MESSAGE);
            return selection;
        }
        for (PipelineConfig pipeline : pipelines) {
            if (selection.kind != null && pipeline.envelope() != selection.kind) {
                continue;
            }
            Unwrapping reading = readings.computeIfAbsent(pipeline.envelope(), kind -> envelopes.unwrap(root, kind));
            if (reading instanceof Unwrapping.Broken broken && selection.problem == null) {
                selection.problem = broken;
            }
            if (!(reading instanceof Unwrapping.Payloads payloads)) {
                continue;
            }
            if (selection.kind == null) {
                selection.units = payloads.units();
                selection.chosen = new ArrayList<>(Collections.nCopies(payloads.units().size(), (PipelineConfig) null));
            }
            boolean matchedAny = false;
            boolean allChosen = true;
            for (int i = 0; i < selection.units.size(); i++) {
                Unwrapping.Unit unit = selection.units.get(i);
                if (selection.chosen.get(i) == null && MatchRules.holds(pipeline.match(), unit.payload(), unit.envelope())) {
                    selection.chosen.set(i, pipeline);
                    matchedAny = true;
                }
                allChosen &= selection.chosen.get(i) != null;
            }
            if (matchedAny) {
                selection.kind = pipeline.envelope();
            }
            if (allChosen && selection.kind != null) {
                break;
            }
        }
        return selection;
    }

    private IntakeResult explainNoMatch(JsonNode root, Unwrapping.Broken problem) {
        if (problem != null) {
            return IntakeResult.rejectedWhole(problem.reason(), problem.detail(), null);
        }
        Map<Envelope, Unwrapping> readings = new EnumMap<>(Envelope.class);
        List<String> mismatches = new ArrayList<>();
        String firstMismatched = null;
        for (PipelineConfig pipeline : pipelines) {
            for (Envelope other : MISMATCH_PROBE_ORDER) {
                if (other == pipeline.envelope()) {
                    continue;
                }
                Unwrapping reading = readings.computeIfAbsent(other, kind -> envelopes.unwrap(root, kind));
                if (reading instanceof Unwrapping.Payloads payloads && payloads.units().stream()
                        .anyMatch(unit -> MatchRules.holds(pipeline.match(), unit.payload(), unit.envelope()))) {
                    mismatches.add("pipeline '" + pipeline.name() + "' is configured with envelope " + pipeline.envelope()
                            + " but its match rule holds when the body is read as " + other);
                    firstMismatched = firstMismatched == null ? pipeline.name() : firstMismatched;
                    break;
                }
            }
        }
        if (!mismatches.isEmpty()) {
            return IntakeResult.rejectedWhole(RejectionReason.ENVELOPE_MISMATCH, String.join("; ", mismatches)
                    + ". The message is " + envelopes.describe(root) + ". Change the pipeline's envelope, or how the producer"
                    + " delivers to the queue (e.g. SNS raw message delivery)", firstMismatched);
        }
        return IntakeResult.rejectedWhole(RejectionReason.NO_MATCHING_PIPELINE, "no pipeline matches " + envelopes.describe(root)
                + "; pipelines tried in order: " + pipelineSummary(), null);
    }

    private String pipelineSummary() {
        List<String> parts = new ArrayList<>();
        for (PipelineConfig pipeline : pipelines) {
            parts.add(pipeline.name() + " (" + pipeline.envelope() + ")");
        }
        return String.join(", ", parts);
    }

    private static Event extract(PipelineConfig pipeline, Unwrapping.Unit unit, InboundMessage message, int bodyBytes) {
        int limit = pipeline.bounds().maxPayloadBytes();
        if (bodyBytes > limit) {
            throw new IntakeFailure(RejectionReason.PAYLOAD_TOO_LARGE, "body is " + bodyBytes + " UTF-8 bytes, over maxPayloadBytes "
                    + limit + " of pipeline '" + pipeline.name() + "'");
        }
        String key = GroupKeys.build(pipeline.key(), unit.payload(), unit.envelope(), pipeline.bounds().maxKeyLength());
        String eventId = EventIds.resolve(pipeline.eventId(), unit, message.originalMessageId());
        EventTimes.EventTime time = EventTimes.resolve(pipeline.eventTime(), unit.payload(), unit.envelope(), message.sentAtOrReceivedAt());
        return new Event(pipeline.name(), key, eventId, time.at(), time.fallback(), message.receivedAt(), unit.payload(),
                unit.envelope(), message.messageId());
    }
}
