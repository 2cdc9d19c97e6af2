package dev.fanin.core.config;

/**
 * One thing wrong with a configuration, precise enough to fix without reading the loader.
 *
 * @param pipeline the pipeline's name, or null when the problem is outside a pipeline or the pipeline has no usable
 *                 name (then {@code field} starts with {@code pipelines[i]})
 * @param field    the field path, e.g. {@code window.size} or {@code aggregations[2].cap}; empty for the whole file
 * @param message  what is wrong and how to fix it, written to follow the field path
 */
public record ConfigProblem(String pipeline, String field, String message) {

    public ConfigProblem {
        field = field == null ? "" : field;
    }

    /** The problem as one line, e.g. {@code pipeline "uploads": window.size "5x" is not a duration; ...}. */
    @Override
    public String toString() {
        String where = field.isEmpty() ? message : field + " " + message;
        return pipeline == null ? where : "pipeline \"" + pipeline + "\": " + where;
    }
}
