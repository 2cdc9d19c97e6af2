package dev.fanin.core.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Why a pipeline whose windows are still being closed is no longer in the configuration in force: it was
 * <em>renamed</em> when a configured pipeline has its definition under another name, else it was <em>removed</em>.
 * Its windows close under its last definition all the same; each aggregate of one says which (the {@code retired}
 * field of {@code schemas/aggregate-v1.json}), so a consumer can tell a window cut off by a configuration change.
 *
 * @param renamedTo the configured pipeline it became, or null when it was removed
 */
public record Retirement(String renamedTo) {

    /** The change that took {@code retired} out of {@code inForce}. */
    public static Retirement of(PipelineConfig retired, FaninConfig inForce) {
        Objects.requireNonNull(retired, "retired");
        Optional<PipelineConfig> renamed = inForce.pipelines().stream()
                .filter(p -> !p.name().equals(retired.name()) && retired.sameDefinitionAs(p)).findFirst();
        return new Retirement(renamed.map(PipelineConfig::name).orElse(null));
    }

    /** {@code renamed} or {@code removed}, as the aggregate writes it. */
    public String change() {
        return renamedTo == null ? "removed" : "renamed";
    }
}
