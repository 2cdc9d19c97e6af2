package dev.fanin.bench;

import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.event.Event;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.machine.Transition;
import dev.fanin.core.machine.WindowMachine;
import dev.fanin.core.machine.WindowState;
import dev.fanin.core.watermark.Watermarks;
import dev.fanin.core.window.Interval;
import dev.fanin.core.window.SessionPlan;
import dev.fanin.core.window.SessionPlanner;
import dev.fanin.core.window.SessionView;
import dev.fanin.core.window.WindowAssigner;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pure core of the ingest path, without ports: intake, then per pipeline the watermark formula, window
 * assignment (or session planning) and one {@link WindowMachine#ingest} per window per batch, keeping the decided
 * states in a map. What it leaves out, next to {@code IngestService} with in-memory ports, is the state codec, the
 * store, metrics, logging and the flush; the CPU time of the two is reported side by side.
 */
final class CoreOnlyIngest {

    private final MessageIntake intake;
    private final Map<String, WindowMachine> machines = new HashMap<>();
    private final Map<String, Map<String, WindowState>> windowsByKey = new HashMap<>();
    private final Map<String, long[]> watermarkInputs = new HashMap<>();

    CoreOnlyIngest(FaninConfig config) {
        this.intake = new MessageIntake(config);
        for (PipelineConfig p : config.pipelines()) {
            machines.put(p.name(), new WindowMachine(p, Duration.ofSeconds(30)));
        }
    }

    /** @return events decided */
    int handle(List<InboundMessage> batch, Instant now) {
        Map<String, List<Event>> byPipeline = new LinkedHashMap<>();
        for (InboundMessage m : batch) {
            for (Event e : intake.parse(m).accepted()) {
                byPipeline.computeIfAbsent(e.pipeline(), p -> new ArrayList<>()).add(e);
            }
        }
        int decided = 0;
        for (Map.Entry<String, List<Event>> entry : byPipeline.entrySet()) {
            WindowMachine machine = machines.get(entry.getKey());
            long watermark = watermark(machine.config(), entry.getValue(), now);
            Map<String, List<Event>> byKey = new LinkedHashMap<>();
            for (Event e : entry.getValue()) {
                byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
            }
            for (Map.Entry<String, List<Event>> key : byKey.entrySet()) {
                Map<String, WindowState> windows = windowsByKey.computeIfAbsent(entry.getKey() + "\u0000" + key.getKey(), k -> new HashMap<>());
                if (machine.config().window() instanceof WindowSpec.Session session) {
                    decided += sessions(machine, session, key.getKey(), key.getValue(), windows, watermark, now);
                } else {
                    decided += timeWindows(machine, key.getKey(), key.getValue(), windows, watermark, now);
                }
            }
        }
        return decided;
    }

    private int timeWindows(WindowMachine machine, String key, List<Event> events, Map<String, WindowState> windows, long watermark, Instant now) {
        Map<String, List<Event>> byWindow = new LinkedHashMap<>();
        Map<String, Interval> bounds = new HashMap<>();
        for (Event e : events) {
            for (Interval w : WindowAssigner.assign(machine.config().window(), e.eventTime().toEpochMilli())) {
                String id = WindowRef.timeWindowId(w.startMillis());
                byWindow.computeIfAbsent(id, i -> new ArrayList<>()).add(e);
                bounds.put(id, w);
            }
        }
        byWindow.forEach((id, evs) -> {
            WindowState state = windows.get(id);
            if (state == null) {
                state = machine.open(new WindowRef(machine.config().name(), key, id), bounds.get(id), now);
            }
            windows.put(id, stored(state, machine.ingest(state, evs, watermark, now)));
        });
        return events.size();
    }

    private int sessions(WindowMachine machine, WindowSpec.Session spec, String key, List<Event> events, Map<String, WindowState> windows,
                         long watermark, Instant now) {
        List<SessionView> views = windows.values().stream()
                .map(s -> new SessionView(s.ref().windowId(), s.bounds(), s.status(), s.cutUntil(spec.gap())))
                .toList();
        SessionPlan plan = SessionPlanner.plan(spec.gap(), views, events.stream().map(e -> e.eventTime().toEpochMilli()).toList());
        for (SessionPlan.Target target : plan.sessions()) {
            WindowState state = target.created()
                    ? machine.open(new WindowRef(machine.config().name(), key, target.windowId()), target.bounds(), now)
                    : windows.get(target.windowId());
            List<WindowState> absorbed = target.absorbed().stream().map(windows::get).toList();
            Transition t = machine.merge(new WindowMachine.Merge(state, absorbed, target.bounds()),
                    target.eventIndexes().stream().map(events::get).toList(), watermark, now);
            t.absorbed().forEach(windows::remove);
            windows.put(target.windowId(), stored(state, t));
        }
        for (SessionPlan.FlushedTarget target : plan.flushed()) {
            WindowState state = windows.get(target.windowId());
            windows.put(target.windowId(), stored(state, machine.ingest(state, target.eventIndexes().stream().map(events::get).toList(), watermark, now)));
        }
        return events.size();
    }

    /**
     * What the store would hold after {@code t}, read at {@code before}: its version moves with each write, as the
     * machine's rules for a stored window (and for one never stored, at version 0) expect.
     */
    private static WindowState stored(WindowState before, Transition t) {
        return t.write() ? t.next().withVersion(before.version() + 1) : before;
    }

    private long watermark(PipelineConfig config, List<Event> events, Instant now) {
        long[] inputs = watermarkInputs.computeIfAbsent(config.name(), p -> new long[] {Long.MIN_VALUE, Long.MIN_VALUE});
        for (Event e : events) {
            inputs[0] = Math.max(inputs[0], e.eventTime().toEpochMilli());
        }
        inputs[1] = now.toEpochMilli();
        return Watermarks.watermarkMillis(config.watermark(), inputs[0], inputs[1], now.toEpochMilli());
    }
}
