package dev.fanin.core.service;

import dev.fanin.core.machine.WindowState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Work that follows successful window writes within one invocation: claimed revisions to emit (batched, so one
 * PutEvents call carries up to ten aggregates) and timers to arm.
 */
final class Followups {

    final List<WindowState> claimed = new ArrayList<>();
    final List<WindowState> timers = new ArrayList<>();
    /** Watermarks already computed in this invocation, by pipeline, so a commit does not read them again. */
    final Map<String, Long> watermarks = new HashMap<>();
}
