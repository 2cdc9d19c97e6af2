package dev.fanin.cli.ops;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.machine.WindowState;

/** One window as JSON for scripts ({@code --json}): the same facts as the table, times ISO-8601. */
final class WindowJson {

    private WindowJson() {
    }

    static ObjectNode of(WindowReport r) {
        WindowState w = r.state();
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("pipeline", w.ref().pipeline());
        json.put("key", w.ref().key());
        json.put("windowId", w.ref().windowId());
        json.put("status", w.status().name());
        json.put("overdue", r.overdue());
        json.put("kind", w.kind().name());
        json.put("start", Times.iso(w.bounds().startMillis()));
        json.put("end", Times.iso(w.bounds().endMillis()));
        json.put("openedAt", Times.iso(w.openedAt()));
        json.put("ageSeconds", r.age().getSeconds());
        json.put("dueAt", w.dueAt() == null ? null : Times.iso(w.dueAt()));
        json.put("hardDeadline", Times.iso(w.hardDeadline()));
        json.put("revision", w.revision());
        json.put("events", w.revisionEvents());
        json.put("expected", r.expected());
        json.put("seen", r.seen());
        json.put("missingCount", r.missingCount().isPresent() ? r.missingCount().getAsLong() : null);
        r.missing().forEach(json.putArray("missing")::add);
        json.put("missingTruncated", r.missingTruncated());
        json.put("why", r.why());
        return json;
    }
}
