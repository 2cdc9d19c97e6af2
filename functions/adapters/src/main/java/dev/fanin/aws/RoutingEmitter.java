package dev.fanin.aws;

import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.AggregateEmitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Sends each request through the emitter of its pipeline's target type ({@link EmitTarget.EventBridge} or
 * {@link EmitTarget.Sqs}) and returns the results in request order. A request for a pipeline the configuration
 * does not know gets a failed result, never an exception; so do the requests of a target whose call throws, while the
 * other target's stand.
 */
public final class RoutingEmitter implements AggregateEmitter {

    private final Map<String, AggregateEmitter> byPipeline;

    /** @param eventBridge may be null when no pipeline emits to EventBridge; likewise {@code sqs} */
    public RoutingEmitter(FaninConfig config, AggregateEmitter eventBridge, AggregateEmitter sqs) {
        Map<String, AggregateEmitter> routes = new HashMap<>();
        for (PipelineConfig pipeline : config.pipelines()) {
            AggregateEmitter emitter = pipeline.emit() instanceof EmitTarget.Sqs ? sqs : eventBridge;
            routes.put(pipeline.name(), Objects.requireNonNull(emitter, () -> "pipeline '" + pipeline.name()
                    + "' emits to " + pipeline.emit().getClass().getSimpleName() + " but no such emitter was given"));
        }
        this.byPipeline = Map.copyOf(routes);
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        Result[] results = new Result[requests.size()];
        Map<AggregateEmitter, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            AggregateEmitter emitter = byPipeline.get(requests.get(i).pipeline());
            if (emitter == null) {
                results[i] = new Result(requests.get(i).aggregateId(), false,
                        "NoTarget: pipeline '" + requests.get(i).pipeline() + "' has no emit target here (not configured, or its"
                                + " recorded target cannot be built: see the ERROR line)");
            } else {
                groups.computeIfAbsent(emitter, e -> new ArrayList<>()).add(i);
            }
        }
        groups.forEach((emitter, indices) -> {
            List<Result> sent;
            try {
                sent = emitter.emit(indices.stream().map(requests::get).toList());
            } catch (RuntimeException e) {
                // This target's call failed as a whole; the other target's results stand: a claim it sent, reported
                // failed, would stay uncommitted and be emitted again when its lease ends.
                sent = indices.stream().map(i -> new Result(requests.get(i).aggregateId(), false, String.valueOf(e.getMessage()))).toList();
            }
            for (int j = 0; j < indices.size(); j++) {
                results[indices.get(j)] = sent.get(j);
            }
        });
        return Arrays.asList(results);
    }
}
