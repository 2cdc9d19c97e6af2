package dev.fanin.core.service;

import dev.fanin.core.window.WindowRef;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Structured log lines about one window: pipeline, key and window id (and any extra fields) go into the MDC, which
 * the JSON layout of the functions turns into fields, so that a window's whole story can be queried by its id.
 */
final class WindowLog {

    private WindowLog() {
    }

    static void info(Logger log, WindowRef ref, String message, Map<String, ?> fields) {
        if (!log.isInfoEnabled()) {
            return;
        }
        with(ref, fields, () -> log.info(message));
    }

    static void debug(Logger log, WindowRef ref, String message, Map<String, ?> fields) {
        with(ref, fields, () -> log.debug(message));
    }

    static void warn(Logger log, WindowRef ref, String message, Map<String, ?> fields) {
        with(ref, fields, () -> log.warn(message));
    }

    private static void with(WindowRef ref, Map<String, ?> fields, Runnable logCall) {
        try {
            MDC.put("pipeline", ref.pipeline());
            MDC.put("key", ref.key());
            MDC.put("windowId", ref.windowId());
            fields.forEach((k, v) -> MDC.put(k, String.valueOf(v)));
            logCall.run();
        } finally {
            MDC.remove("pipeline");
            MDC.remove("key");
            MDC.remove("windowId");
            fields.keySet().forEach(MDC::remove);
        }
    }
}
