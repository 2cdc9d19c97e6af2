package dev.fanin.cli.replay;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fanin.testkit.LocalResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything a replay needs to continue after its process dies: the simulated time, how far the trace has been
 * read, the messages still in the simulated input queue (un-acknowledged ones included, so a restart re-sends them
 * exactly as SQS redelivers), the timers read from the timer queue, the SQS ids already copied to the outputs and
 * the length of each output file. Written atomically (temporary file, then rename) after every step; a step that
 * dies before its write is simply done again.
 */
final class ReplayState {

    static final String FILE_NAME = "replay-state.json";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public String prefix;
    public LocalResources resources;
    public long nowMillis;
    public long lastSweepMillis = Long.MIN_VALUE;
    public int cursor;
    public List<Delivery> inputs = new ArrayList<>();
    public List<TimerDelivery> timers = new ArrayList<>();
    public Set<String> drained = new LinkedHashSet<>();
    public Map<String, Long> offsets = new TreeMap<>();
    public Map<String, Long> counters = new TreeMap<>();
    public Map<String, Integer> maxCalls = new TreeMap<>();
    public long invocations;
    public boolean finished;

    void count(String counter, long delta) {
        counters.merge(counter, delta, Long::sum);
    }

    long counter(String counter) {
        return counters.getOrDefault(counter, 0L);
    }

    static ReplayState load(Path file) {
        try {
            return JSON.readValue(file.toFile(), ReplayState.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the replay state " + file, e);
        }
    }

    void save(Path file) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            JSON.writeValue(temporary.toFile(), this);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the replay state " + file, e);
        }
    }
}
