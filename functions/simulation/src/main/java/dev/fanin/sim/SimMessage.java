package dev.fanin.sim;

import java.util.List;

/**
 * A message the simulated producers put on the input queue: its body and, known only to the simulation (ground
 * truth), the event identities it carries.
 */
public record SimMessage(String messageId, String body, List<Identity> identities) {

    public SimMessage {
        identities = List.copyOf(identities);
    }
}
