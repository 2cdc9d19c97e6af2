package dev.fanin.core.port;

import java.util.Map;

/**
 * The dead-letter path for input messages fanin cannot process (malformed, no matching pipeline, or failing past
 * the retry limit). The original body and attributes are kept, and the reason rides along as an attribute.
 */
public interface DeadLetters {

    void send(String messageId, String body, Map<String, String> attributes, String reason);
}
