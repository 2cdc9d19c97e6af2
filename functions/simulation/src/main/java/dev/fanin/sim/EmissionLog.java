package dev.fanin.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.text.ExactJson;
import dev.fanin.testkit.AggregateSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The downstream target as the simulation sees it: every emission, by aggregate id, as a count and the fingerprint
 * of its content without {@code emittedAt}. Records a violation when two emissions of one id differ, or when an
 * aggregate breaks the shipped schema.
 */
public final class EmissionLog implements AggregateEmitter {


    /** What was emitted under one aggregate id. */
    public static final class Emitted {
        int count;
        String fingerprint;
    }

    private final Map<String, Emitted> byId = new HashMap<>();
    private final Violations violations;
    private long emissions;

    public EmissionLog(Violations violations) {
        this.violations = violations;
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        List<Result> results = new ArrayList<>();
        for (Request r : requests) {
            ObjectNode json;
            try {
                json = (ObjectNode) ExactJson.read(r.detailJson());
            } catch (JsonProcessingException | ClassCastException e) {
                violations.add("emission of " + r.aggregateId() + " is not a JSON object: " + e.getMessage());
                results.add(new Result(r.aggregateId(), true, null));
                continue;
            }
            if (!r.aggregateId().equals(json.path("aggregateId").asText())) {
                violations.add("emission request id " + r.aggregateId() + " carries aggregateId " + json.path("aggregateId").asText());
            }
            String fp = Fingerprint.of(json);
            Emitted e = byId.computeIfAbsent(r.aggregateId(), id -> new Emitted());
            if (e.fingerprint == null) {
                // Each distinct aggregate is checked against the shipped schema; a re-emission must equal it (below).
                List<String> problems = AggregateSchema.problems(json);
                if (!problems.isEmpty()) {
                    violations.add("emission of " + r.aggregateId() + " breaks schemas/aggregate-v1.json: " + problems);
                }
            }
            if (e.fingerprint != null && !e.fingerprint.equals(fp)) {
                violations.add("re-emission of " + r.aggregateId() + " differs from its first emission in more than emittedAt");
            }
            e.fingerprint = e.fingerprint == null ? fp : e.fingerprint;
            e.count++;
            emissions++;
            results.add(new Result(r.aggregateId(), true, null));
        }
        return results;
    }

    public Map<String, Emitted> byId() {
        return byId;
    }

    public long emissions() {
        return emissions;
    }

    static int count(Emitted e) {
        return e.count;
    }

    static String fingerprint(Emitted e) {
        return e.fingerprint;
    }
}
