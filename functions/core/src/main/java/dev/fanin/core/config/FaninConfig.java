package dev.fanin.core.config;

import java.util.List;
import java.util.Optional;

/**
 * A loaded, validated configuration: one or more pipelines, in match order.
 *
 * <p>Instances only come out of {@link ConfigLoader}, which rejects every configuration that could leave a
 * window open forever; code holding a {@code FaninConfig} may rely on every invariant documented on
 * {@link PipelineConfig}.
 */
public record FaninConfig(int version, List<PipelineConfig> pipelines) {

    public FaninConfig {
        pipelines = List.copyOf(pipelines);
    }

    public Optional<PipelineConfig> pipeline(String name) {
        return pipelines.stream().filter(p -> p.name().equals(name)).findFirst();
    }
}
