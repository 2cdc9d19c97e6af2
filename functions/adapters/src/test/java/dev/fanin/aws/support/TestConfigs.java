package dev.fanin.aws.support;

import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import java.util.Arrays;
import java.util.List;

/** Configurations that fill only what the adapters read (name and emit target). */
public final class TestConfigs {

    private TestConfigs() { }

    public static PipelineConfig pipeline(String name, EmitTarget emit) {
        return new PipelineConfig(name, null, null, List.of(), null, null, null, null, null, null, null, null,
                List.of(), null, emit, null);
    }

    public static FaninConfig config(PipelineConfig... pipelines) {
        return new FaninConfig(1, Arrays.asList(pipelines));
    }
}
