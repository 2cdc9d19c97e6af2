package dev.fanin.core.config;

import java.util.ArrayList;
import java.util.List;

/** Collects problems while the loader walks the document, so that all of them are reported at once. */
final class Problems {

    private final List<ConfigProblem> found = new ArrayList<>();

    void add(String pipeline, String field, String message) {
        found.add(new ConfigProblem(pipeline, field, message));
    }

    int count() {
        return found.size();
    }

    List<ConfigProblem> all() {
        return List.copyOf(found);
    }
}
