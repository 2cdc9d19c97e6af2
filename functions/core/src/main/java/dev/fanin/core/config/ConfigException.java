package dev.fanin.core.config;

import java.util.List;

/** A configuration was rejected; {@link #problems()} lists every problem found, in document order. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String origin;
    private final transient List<ConfigProblem> problems;

    public ConfigException(String origin, List<ConfigProblem> problems) {
        super(render(origin, problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.origin = origin;
        this.problems = List.copyOf(problems);
    }

    /** Where the configuration came from (a file name or resource), as given to the loader. */
    public String origin() {
        return origin;
    }

    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String render(String origin, List<ConfigProblem> problems) {
        StringBuilder text = new StringBuilder()
                .append(origin).append(": ")
                .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
        for (ConfigProblem problem : problems) {
            text.append(System.lineSeparator()).append("  - ").append(problem);
        }
        return text.toString();
    }
}
