package dev.fanin.core.port;

/**
 * Where fanin puts what it does not fold into an aggregate: too-late events, events refused by a full window, and
 * windows dead-lettered by the HOLD policy. Every record carries its reason.
 */
public interface SideOutput {

    /** @param kind e.g. {@code LATE_EVENT}, {@code WINDOW_FULL}, {@code WINDOW_DEAD_LETTERED}; @param json the record */
    void send(String kind, String pipeline, String json);
}
