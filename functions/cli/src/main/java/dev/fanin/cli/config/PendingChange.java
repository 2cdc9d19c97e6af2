package dev.fanin.cli.config;

import dev.fanin.core.config.ConfigException;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.lambda.ConfigLocation;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A valid configuration about to replace the document published at a location, as {@code fanin config diff} and
 * {@code publish} show it: which pipelines change and how, and what each change does to the windows open then.
 *
 * @param published the document published there now, if any (it may be invalid: someone uploaded it by hand)
 * @param nextText  the new document, already validated into {@code next}
 */
record PendingChange(ConfigLocation location, Optional<String> published, String nextText, FaninConfig next) {

    /** Whether the new document is the one published, byte for byte. */
    boolean identical() {
        return published.filter(nextText::equals).isPresent();
    }

    /** The changes against the published configuration (against none when nothing valid is published). */
    List<ConfigDiff.Change> changes() {
        return ConfigDiff.between(publishedConfig().orElse(new FaninConfig(next.version(), List.of())), next);
    }

    void print(PrintStream out) {
        Optional<FaninConfig> before = publishedConfig();
        if (published.isEmpty()) {
            out.println("nothing is published at " + location + " yet: every pipeline is new to it, and \"none open yet\" below"
                    + " is not known: a stack that ran a configuration from elsewhere (the jar's, another location) may have"
                    + " windows of these pipelines open, which go on under these definitions (fanin windows list --stack ...)");
        } else if (before.isEmpty()) {
            out.println("the document published at " + location + " is invalid, so the functions kept the last valid one they"
                    + " read (its log line names it): every pipeline is compared with nothing, and \"none open yet\" below"
                    + " is not known: its windows opened under that one may be open (fanin windows list --stack ... --config"
                    + " <the last valid document>)");
        } else {
            out.println("published at " + location + ": " + names(before.get()));
        }
        out.println("new: " + names(next));
        if (identical()) {
            out.println("no change: the document is the one published");
            return;
        }
        List<ConfigDiff.Change> changes = changes();
        changes.forEach(out::println);
        out.println(changes.isEmpty() ? "no change to any pipeline (the documents differ in comments or layout only)"
                : changes.size() + (changes.size() == 1 ? " change" : " changes"));
    }

    private Optional<FaninConfig> publishedConfig() {
        try {
            return published.map(text -> ConfigLoader.load(text, location.toString()));
        } catch (ConfigException e) {
            return Optional.empty();
        }
    }

    private static String names(FaninConfig config) {
        int n = config.pipelines().size();
        return n + (n == 1 ? " pipeline" : " pipelines") + " ("
                + config.pipelines().stream().map(PipelineConfig::name).collect(Collectors.joining(", ")) + ")";
    }
}
