package dev.fanin.testkit;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses template properties the local creator does not know, so a property added to the template cannot be
 * silently left out of the local resources (the drift this testkit exists to prevent).
 */
final class PropertyCheck {

    private PropertyCheck() {
    }

    static void onlyKnown(String logicalId, String type, Map<String, Object> properties, Set<String> honoured,
            Set<String> notNeededLocally) {
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(honoured);
        unknown.removeAll(notNeededLocally);
        if (!unknown.isEmpty()) {
            throw new UnsupportedOperationException(logicalId + " (" + type + "): properties " + unknown
                    + " are not created locally; teach TemplateResources to honour them, or list them as not needed"
                    + " locally with the reason");
        }
    }
}
