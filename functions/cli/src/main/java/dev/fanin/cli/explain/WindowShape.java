package dev.fanin.cli.explain;

import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import java.time.Duration;

/**
 * What the prose needs to know about a pipeline's window, whatever its type.
 *
 * @param session        a session window (its end moves with its last event)
 * @param length         the gap of a session, the size otherwise
 * @param lengthField    the configuration field holding {@code length}
 * @param end            how the window's exclusive end is computed, in words
 * @param windowsPerEvent how many windows one event is folded into
 */
record WindowShape(boolean session, Duration length, String lengthField, String end, long windowsPerEvent) {

    static WindowShape of(PipelineConfig pipeline) {
        WindowSpec window = pipeline.window();
        if (window instanceof WindowSpec.Session s) {
            return new WindowShape(true, s.gap(), "window.gap", "its last event time + " + Human.config(s.gap()), 1);
        }
        if (window instanceof WindowSpec.Tumbling t) {
            return new WindowShape(false, t.size(), "window.size", "its start + " + Human.config(t.size()), 1);
        }
        WindowSpec.Sliding s = (WindowSpec.Sliding) window;
        return new WindowShape(false, s.size(), "window.size", "its start + " + Human.config(s.size()),
                s.size().toMillis() / s.slide().toMillis());
    }
}
