package dev.fanin.sim;

import dev.fanin.core.port.DeadLetters;
import dev.fanin.core.port.SideOutput;
import java.util.List;
import java.util.Map;

/** Side output and dead-letter decorators: crashes around the send, and sends failing before taking effect. */
public final class FaultySinks implements SideOutput, DeadLetters {

    private final SideOutput side;
    private final DeadLetters dead;
    private final Faults faults;

    public FaultySinks(SideOutput side, DeadLetters dead, Faults faults) {
        this.side = side;
        this.dead = dead;
        this.faults = faults;
    }

    @Override
    public void send(String kind, String pipeline, String json) {
        faults.beforeCall("side output", List.of(), true);
        side.send(kind, pipeline, json);
        faults.afterCall("side output", List.of());
    }

    @Override
    public void send(String messageId, String body, Map<String, String> attributes, String code, String reason) {
        faults.beforeCall("dead letter", List.of(), true);
        dead.send(messageId, body, attributes, code, reason);
        faults.afterCall("dead letter", List.of());
    }
}
