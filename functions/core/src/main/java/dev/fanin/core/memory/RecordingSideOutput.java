package dev.fanin.core.memory;

import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.SideOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Side output and dead letters kept in memory, in order. */
public final class RecordingSideOutput implements SideOutput, DeadLetters {

    public record SideRecord(String kind, String pipeline, String json) { }

    public record DeadLetter(String messageId, String body, Map<String, String> attributes, String code, String reason) { }

    private final List<SideRecord> side = new ArrayList<>();
    private final List<DeadLetter> dead = new ArrayList<>();

    @Override
    public synchronized void send(String kind, String pipeline, String json) {
        side.add(new SideRecord(kind, pipeline, json));
    }

    @Override
    public synchronized void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        dead.add(new DeadLetter(messageId, body, Map.copyOf(attributes), code, reason));
    }

    public synchronized List<SideRecord> sideRecords() {
        return List.copyOf(side);
    }

    public synchronized List<DeadLetter> deadLetters() {
        return List.copyOf(dead);
    }
}
