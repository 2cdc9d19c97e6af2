package dev.fanin.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One committed revision, as frozen in the claim that was committed: what the invariant checks need of it.
 *
 * @param aggregateId  its id
 * @param revision     its revision
 * @param reason       its close reason
 * @param complete     its completeness flag
 * @param expected     the expected count it carried, null when unknown
 * @param missingCount what it said was missing, null when unknown
 * @param count        the {@code count} aggregation
 * @param distinct     the {@code distinct-ids} count
 * @param ids          the {@code distinct-ids} ids (all of them while below the cap)
 * @param startMillis  window start (event time)
 * @param endMillis    window end (event time)
 * @param deadLetter   sent to the dead-letter side output instead of the target (HOLD policy)
 * @param fingerprint  the content without {@code emittedAt}
 */
record CommittedRevision(String aggregateId, int revision, String reason, boolean complete, Integer expected, Long missingCount,
                         long count, long distinct, List<String> ids, long startMillis, long endMillis, boolean deadLetter,
                         String fingerprint) {

    static CommittedRevision of(ObjectNode emission, boolean deadLetter) {
        JsonNode agg = emission.path("aggregations");
        List<String> ids = new ArrayList<>();
        agg.path(SimPipelines.IDS).path("ids").forEach(n -> ids.add(n.asText()));
        return new CommittedRevision(
                emission.path("aggregateId").asText(),
                emission.path("revision").asInt(),
                emission.path("closeReason").asText(),
                emission.path("complete").asBoolean(),
                emission.path("expected").isNumber() ? emission.path("expected").asInt() : null,
                emission.path("missingCount").isNumber() ? emission.path("missingCount").asLong() : null,
                agg.path(SimPipelines.COUNT).asLong(-1),
                agg.path(SimPipelines.IDS).path("count").asLong(-1),
                List.copyOf(ids),
                Instant.parse(emission.path("window").path("start").asText()).toEpochMilli(),
                Instant.parse(emission.path("window").path("end").asText()).toEpochMilli(),
                deadLetter,
                Fingerprint.of(emission));
    }
}
