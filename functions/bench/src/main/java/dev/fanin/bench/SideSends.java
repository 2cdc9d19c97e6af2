package dev.fanin.bench;

import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.SideOutput;
import java.util.EnumMap;
import java.util.Map;

/**
 * The side output and the input's dead letters as the SQS adapters send them ({@code SqsSideOutput},
 * {@code SqsDeadLetters}): one {@code SendMessage} per record, which the function that makes it waits on. Each send
 * is counted on the guarantee its record serves: a too-late event (past {@code allowedLateness}) ends late handling,
 * so it buys the corrections; a full window's overflow, a window dead-lettered by the HOLD policy and an input message
 * fanin cannot process are kept aside with their reason.
 */
final class SideSends implements SideOutput, DeadLetters {

    /** The side output's kind for a too-late event ({@code IngestBatch}). */
    static final String TOO_LATE = "LATE_EVENT";

    private final RecordingSideOutput records = new RecordingSideOutput();
    private final Map<Guarantee, Long> byGuarantee = new EnumMap<>(Guarantee.class);

    @Override
    public void send(String kind, String pipeline, String json) {
        records.send(kind, pipeline, json);
        byGuarantee.merge(guaranteeOf(kind), 1L, Long::sum);
    }

    @Override
    public void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        records.send(messageId, body, attributes, code, reason);
        byGuarantee.merge(Guarantee.KEPT_ASIDE, 1L, Long::sum);
    }

    /** The guarantee a side-output record of {@code kind} serves. */
    static Guarantee guaranteeOf(String kind) {
        return TOO_LATE.equals(kind) ? Guarantee.CORRECTIONS : Guarantee.KEPT_ASIDE;
    }

    /** Every send so far: side-output records and dead letters. */
    long sends() {
        return byGuarantee.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The sends so far by the guarantee they serve. */
    Map<Guarantee, Long> byGuarantee() {
        return Map.copyOf(byGuarantee);
    }

    long sideRecords() {
        return records.sideRecords().size();
    }

    long deadLetters() {
        return records.deadLetters().size();
    }
}
