package dev.fanin.core.port;

import java.util.Map;

/**
 * The dead-letter path for input messages fanin cannot process (malformed, no matching pipeline, or failing past
 * the retry limit). The original body and attributes are kept, and the reason rides along as attributes: its code
 * for machines, its text for people.
 */
public interface DeadLetters {

    /**
     * @param messageId the message's original id ({@code InboundMessage#originalMessageId}), which a redrive of the
     *                  dead letter carries back
     * @param code   the machine-readable reason: a {@code RejectionReason} name (several, sorted and joined by
     *               {@code ,}, for an S3 notification whose records were rejected for different reasons), or
     *               {@code RETRIES_EXHAUSTED}
     * @param reason the text, starting with the code: what is wrong, where, and the value
     */
    void send(String messageId, String body, Map<String, String> attributes, String code, String reason);
}
