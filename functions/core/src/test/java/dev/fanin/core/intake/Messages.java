package dev.fanin.core.intake;

import java.time.Instant;

/** Inbound messages for tests: sent at {@link #SENT}, received two seconds later. */
final class Messages {

    static final Instant SENT = Instant.parse("2026-11-29T10:00:00Z");
    static final Instant RECEIVED = SENT.plusSeconds(2);

    private Messages() {
    }

    static InboundMessage message(String body) {
        return new InboundMessage("msg-1", body, SENT, RECEIVED);
    }

    static InboundMessage withoutSentTimestamp(String body) {
        return new InboundMessage("msg-1", body, null, RECEIVED);
    }

    /** Single quotes become double quotes, so JSON literals in tests stay readable. */
    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
