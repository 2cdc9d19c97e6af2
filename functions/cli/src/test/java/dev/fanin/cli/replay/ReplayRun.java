package dev.fanin.cli.replay;

import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.TemplateResources;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/** Runs a replay in this JVM against the shared local endpoint and reads back what it wrote. */
public record ReplayRun(ReplayState state, OutputFiles outputs) {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Path REPO = TemplateResources.locateTemplate().getParent();
    public static final Path CONFIG = REPO.resolve("functions/core/src/main/resources/fanin/pipelines.yaml");

    public static Path trace(String name) {
        return REPO.resolve("events/traces/" + name + ".jsonl");
    }

    public static ReplayRun run(Path trace, Path out, double redeliver, double crashRate, long seed) {
        return run(trace, out, redeliver, crashRate, seed, List.of(), java.time.Duration.ZERO);
    }

    /** A replay whose input queue's consumers stop for {@code outages} (each {@code OFFSET+LENGTH}, as {@code --outage}). */
    public static ReplayRun run(Path trace, Path out, double redeliver, double crashRate, long seed, List<String> outages,
                                java.time.Duration backlogShuffle) {
        return run(CONFIG, trace, out, redeliver, crashRate, seed, outages, backlogShuffle);
    }

    /** As above, with the pipelines of {@code config}. */
    public static ReplayRun run(Path config, Path trace, Path out, double redeliver, double crashRate, long seed, List<String> outages,
                                java.time.Duration backlogShuffle) {
        return run(config, REPO.resolve("template.yaml"), trace, out, redeliver, crashRate, seed, outages, backlogShuffle);
    }

    /** As above, batching and timing out as {@code template}'s defaults say. */
    public static ReplayRun run(Path config, Path template, Path trace, Path out, double redeliver, double crashRate, long seed,
                                List<String> outages, java.time.Duration backlogShuffle) {
        Configurator.setLevel("dev.fanin", Level.OFF);
        Configurator.setRootLevel(Level.OFF);
        ReplayOptions options = new ReplayOptions(config, trace, out, Optional.empty(), redeliver, java.time.Duration.ZERO, crashRate, seed,
                Optional.empty(), false, template, outages.stream().map(Outages.Spec::parse).toList(), backlogShuffle);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        ReplayState state = new Replay(options, TraceReader.read(trace), ConfigLoader.load(config), LocalAwsEndpoint.shared(),
                quiet).run();
        return new ReplayRun(state, new OutputFiles(out));
    }

    /** Reads the outputs of a replay (possibly run by another process) in {@code out}. */
    public static ReplayRun read(Path out) {
        return new ReplayRun(ReplayState.load(out.resolve(ReplayState.FILE_NAME)), new OutputFiles(out));
    }

    public List<JsonNode> emissions() {
        return outputs.lines(OutputFiles.AGGREGATES).stream().map(ReplayRun::parse).peek(AggregateSchema::assertValid).toList();
    }

    /**
     * Each aggregate id with its content except {@code emittedAt}; fails if two emissions of one id differ in
     * anything else (a re-emission must be recognisably the same aggregate).
     */
    public Map<String, JsonNode> aggregatesById() {
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        for (JsonNode emission : emissions()) {
            ObjectNode content = emission.deepCopy();
            content.remove("emittedAt");
            JsonNode before = byId.putIfAbsent(content.path("aggregateId").asText(), content);
            if (before != null) {
                assertThat(content).as("re-emission of %s", content.path("aggregateId").asText()).isEqualTo(before);
            }
        }
        return byId;
    }

    public int lines(String output) {
        return outputs.lines(output).size();
    }

    public List<String> lateRecords() {
        return outputs.lines(OutputFiles.LATE);
    }

    public List<String> deadLetterRecords() {
        return outputs.lines(OutputFiles.DEAD_LETTERS);
    }

    public long counter(String name) {
        return state.counter(name);
    }

    public boolean finished() {
        return state.finished;
    }

    /**
     * The windows that emitted something but are not closed in the window table (read through a runtime built as
     * the replay builds it): each must have committed its close.
     */
    public List<String> emittedWindowsNotClosed() {
        Map<String, String> env = new LinkedHashMap<>(state.resources.functionEnvironment());
        env.put("FANIN_CONFIG", "file:" + CONFIG.toAbsolutePath());
        env.put("AWS_ENDPOINT_URL", LocalAwsEndpoint.shared().endpoint().toString());
        env.put("AWS_REGION", LocalAwsEndpoint.REGION.id());
        env.put("AWS_ACCESS_KEY_ID", "fanin-local");
        env.put("AWS_SECRET_ACCESS_KEY", "fanin-local");
        dev.fanin.lambda.FaninRuntime runtime = dev.fanin.lambda.FaninRuntime.create(env, java.time.Clock.systemUTC());
        List<String> notClosed = new java.util.ArrayList<>();
        for (JsonNode a : aggregatesById().values()) {
            dev.fanin.core.window.WindowRef ref = new dev.fanin.core.window.WindowRef(a.path("pipeline").asText(),
                    a.path("key").asText(), a.path("window").path("id").asText());
            Optional<dev.fanin.core.port.StoredWindow> stored = runtime.engine().ports().store().load(ref);
            if (stored.isEmpty() || runtime.engine().decode(stored.get()).status().isOpen()) {
                notClosed.add(ref + (stored.isEmpty() ? " (missing)" : " " + runtime.engine().decode(stored.get()).status()));
            }
        }
        return notClosed;
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(line, e);
        }
    }
}
