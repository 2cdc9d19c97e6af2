package dev.fanin.core.config;

/**
 * A place in the configuration document: the pipeline it belongs to and the field path to it. Problems are
 * reported against a spot, so every message names its pipeline and field.
 */
record Spot(String pipeline, String field, Problems problems) {

    static Spot root(Problems problems) {
        return new Spot(null, "", problems);
    }

    Spot child(String name) {
        return new Spot(pipeline, field.isEmpty() ? name : field + "." + name, problems);
    }

    Spot index(int i) {
        return new Spot(pipeline, field + "[" + i + "]", problems);
    }

    /** Reports a problem at this spot; {@code message} follows the field path, e.g. {@code "is missing; ..."}. */
    void problem(String message) {
        problems.add(pipeline, field, message);
    }
}
