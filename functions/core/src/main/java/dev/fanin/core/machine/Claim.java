package dev.fanin.core.machine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.window.CloseReason;
import java.util.Objects;

/**
 * A frozen revision awaiting emission. The emission is built once, when the claim is made, and kept in the window's
 * state, so that whoever emits it (the claimer, or a taker-over after the lease ends) sends the same aggregate with
 * the same aggregate id; only {@code emittedAt} differs between re-emissions.
 *
 * @param revision   the revision being closed
 * @param reason     why
 * @param complete   the {@code complete} flag it carries
 * @param deadLetter true when the HOLD policy's deadline sends the window to the side output instead of the target
 * @param emission   the aggregate event JSON ({@code emittedAt} is replaced at each emission)
 */
public record Claim(int revision, CloseReason reason, boolean complete, boolean deadLetter, ObjectNode emission) {

    public Claim {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(emission, "emission");
        emission = emission.deepCopy();
    }

    public String aggregateId() {
        return emission.path("aggregateId").asText();
    }

    @Override
    public ObjectNode emission() {
        return emission.deepCopy();
    }
}
