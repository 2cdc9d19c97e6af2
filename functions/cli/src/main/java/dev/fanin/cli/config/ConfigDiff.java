package dev.fanin.cli.config;

import dev.fanin.cli.explain.Human;
import dev.fanin.core.config.AggregationSpec;
import dev.fanin.core.config.Durations;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.IncompletePolicy;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.WindowSpec;
import dev.fanin.core.machine.WindowMachine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What publishing a configuration over the deployed one changes, pipeline by pipeline and field by field, and what
 * each change does to the windows open at that moment, by the rules of docs/CONFIGURATION.md ("Changing the
 * configuration with open windows"). A pipeline removed and one added with the same definition under another name
 * is a rename ({@link PipelineConfig#sameDefinitionAs}, as the functions decide it). Fields are compared as the
 * loader resolved them (defaults filled in), so a default written out is no change.
 */
public final class ConfigDiff {

    /** One change: what it is, and what it does to the windows open when it is published. */
    public record Change(String pipeline, String what, String openWindows) {
        @Override
        public String toString() {
            return pipeline + ": " + what + " -> " + openWindows;
        }
    }

    private record Field(String name, Function<PipelineConfig, Object> value, BiFunction<PipelineConfig, PipelineConfig, String> openWindows) {
        Field(String name, Function<PipelineConfig, Object> value, String openWindows) {
            this(name, value, (before, after) -> openWindows);
        }
    }

    private static final List<Field> FIELDS = List.of(
            new Field("match", PipelineConfig::match, "new events are matched by the new rules; open windows close by their triggers"),
            new Field("envelope", PipelineConfig::envelope, "new events are read from the new envelope"),
            new Field("key", PipelineConfig::key, "new events are grouped by the new key: open windows of keys no longer produced get"
                    + " no more events and close by their triggers"),
            new Field("eventId", PipelineConfig::eventId, ConfigDiff::eventIdChange),
            new Field("eventTime", PipelineConfig::eventTime, "new events take their time from the new rule"),
            new Field("window", PipelineConfig::window, ConfigDiff::windowChange),
            new Field("triggers.maxLifetime", p -> p.triggers().maxLifetime(), "applies to windows opened from now on; open windows"
                    + " keep their hard deadline"),
            new Field("triggers (count, expected, sentinel)", p -> List.of(String.valueOf(p.triggers().count()),
                    String.valueOf(p.triggers().expected()), String.valueOf(p.triggers().sentinel())),
                    (before, after) -> "applies to open windows at their next visit" + heldStay(before)),
            new Field("watermark", PipelineConfig::watermark, "applies to the pipeline's watermark from now on"),
            new Field("allowedLateness", PipelineConfig::allowedLateness, ConfigDiff::latenessChange),
            new Field("late", PipelineConfig::late, ConfigDiff::lateChange),
            new Field("incomplete", PipelineConfig::incomplete, (before, after) -> "applies to open windows at their next close"
                    + heldStay(before)),
            new Field("bounds", PipelineConfig::bounds, "applies to open windows from now on"),
            new Field("emit", PipelineConfig::emit, "the next aggregates, of open windows too, go to the new target"),
            new Field("retention", PipelineConfig::retention, "applies to windows opened from now on"));

    private ConfigDiff() {
    }

    public static List<Change> between(FaninConfig deployed, FaninConfig next) {
        List<Change> changes = new ArrayList<>(orderChange(deployed, next));
        Map<String, PipelineConfig> removed = new LinkedHashMap<>();
        deployed.pipelines().forEach(p -> removed.put(p.name(), p));
        List<PipelineConfig> added = new ArrayList<>();
        for (PipelineConfig p : next.pipelines()) {
            PipelineConfig before = removed.remove(p.name());
            if (before == null) {
                added.add(p);
            } else {
                changes.addAll(fieldChanges(before, p));
            }
        }
        for (PipelineConfig p : added) {
            PipelineConfig renamedFrom = removed.values().stream().filter(old -> old.sameDefinitionAs(p)).findFirst().orElse(null);
            if (renamedFrom != null) {
                removed.remove(renamedFrom.name());
                changes.add(new Change(renamedFrom.name(), "renamed to " + p.name(), "new events go to new windows of " + p.name()
                        + "; open windows of " + renamedFrom.name() + " get no more and close under its old definition, by "
                        + renamedFrom.triggers().maxLifetime() + " after they opened at the latest"));
            } else {
                changes.add(new Change(p.name(), "added", "none open yet"));
            }
        }
        removed.values().forEach(p -> changes.add(new Change(p.name(), "removed", "open windows get no more events and close under"
                + " its last definition, by " + p.triggers().maxLifetime() + " after they opened at the latest ("
                + p.incomplete().mode().name().toLowerCase().replace('_', '-') + " if incomplete)")));
        return changes;
    }

    /**
     * Under {@code incomplete: hold}, a window already held is decided again only when an event reaches it or at its
     * hard deadline (docs/CONFIGURATION.md): a change meant to release held windows does not reach them by itself.
     */
    private static String heldStay(PipelineConfig before) {
        return before.incomplete().mode() != IncompletePolicy.Mode.HOLD ? ""
                : "; windows already held stay held until an event reaches them or their hard deadline: release them with"
                        + " fanin windows close --pipeline " + before.name() + " --all-held --note TEXT";
    }

    /**
     * The first pipeline whose match rules a message meets takes it: pipelines kept under their names but put in
     * another order may route a message elsewhere, where their rules overlap.
     */
    private static List<Change> orderChange(FaninConfig deployed, FaninConfig next) {
        List<String> kept = next.pipelines().stream().map(PipelineConfig::name)
                .filter(name -> deployed.pipelines().stream().anyMatch(p -> p.name().equals(name))).toList();
        List<String> wasOrder = deployed.pipelines().stream().map(PipelineConfig::name).filter(kept::contains).toList();
        if (wasOrder.equals(kept)) {
            return List.of();
        }
        return List.of(new Change(String.join(", ", kept), "pipeline order changed (was " + String.join(", ", wasOrder) + ")",
                "a message goes to the first pipeline whose match rules it meets: where their rules overlap, new events go to"
                        + " another pipeline than before; open windows of the one they left get no more of them and close by their triggers"));
    }

    private static List<Change> fieldChanges(PipelineConfig before, PipelineConfig after) {
        List<Change> changes = new ArrayList<>();
        for (Field f : FIELDS) {
            if (!same(f.value().apply(before), f.value().apply(after))) {
                changes.add(new Change(after.name(), f.name() + " changed", f.openWindows().apply(before, after)));
            }
        }
        changes.addAll(aggregationChanges(before, after));
        return changes;
    }

    private static List<Change> aggregationChanges(PipelineConfig before, PipelineConfig after) {
        Map<String, AggregationSpec> old = new LinkedHashMap<>();
        before.aggregations().forEach(a -> old.put(a.name(), a));
        List<Change> changes = new ArrayList<>();
        for (AggregationSpec a : after.aggregations()) {
            AggregationSpec was = old.remove(a.name());
            if (was == null) {
                changes.add(new Change(after.name(), "aggregation " + a.name() + " added",
                        "in open windows it covers only the events from now on"));
            } else if (was.getClass() != a.getClass()) {
                changes.add(new Change(after.name(), "aggregation " + a.name() + " changed type", "starts empty in open windows"));
            } else if (!Objects.equals(was.path(), a.path())) {
                changes.add(new Change(after.name(), "aggregation " + a.name() + " reads another field (" + a.path() + ")",
                        "starts empty in open windows"));
            } else if (!same(was, a)) {
                changes.add(new Change(after.name(), "aggregation " + a.name() + " changed", "open windows keep what it holds and go on"
                        + " with the new settings"));
            }
        }
        old.keySet().forEach(name -> changes.add(new Change(after.name(), "aggregation " + name + " removed",
                "dropped from the aggregates of open windows")));
        return changes;
    }

    /**
     * A window drops a duplicate by the ids of the events it has counted, each taken by the {@code eventId} in force then
     * (the SQS message id where none is configured). The new definition gives an event counted before the change
     * another id, so one delivered again into a window opened before is counted again; a rename in the same change
     * leaves those windows to close under the old definition, with no more events.
     */
    private static String eventIdChange(PipelineConfig before, PipelineConfig after) {
        return "new events are deduplicated by " + idOf(after) + " instead of " + idOf(before) + "; WARNING: windows opened"
                + " before hold the ids of their events by the old definition, so an event delivered again across the change (a"
                + " redelivery, a dead-letter redrive, a replay) into one of them while it takes events (until its hard deadline +"
                + " allowedLateness) is counted a second time, as a correction if the window has fired: rename the pipeline in the"
                + " same change (its windows then get no more events and close under the old definition; the new name's windows"
                + " take the events from the change on), or publish when none of its windows is open or within its allowedLateness";
    }

    /**
     * A new time window that starts where one opened before did goes by an id naming both ends while the old window's
     * items last (its retention past its deadline); one still taking events after they expired starts again under the
     * old id (docs/CONFIGURATION.md, "Changing the configuration with open windows").
     */
    private static String windowChange(PipelineConfig before, PipelineConfig after) {
        String text = after.window() instanceof WindowSpec.Session && before.window() instanceof WindowSpec.Session
                ? "new events extend sessions by the new gap; open sessions keep the ends their events gave them and close at"
                        + " their own end or deadline"
                : "new events go to windows of the new shape; open windows get no more of them, keep their bounds and kind and"
                        + " close at their own end or deadline";
        Duration size = after.window() instanceof WindowSpec.Tumbling t ? t.size()
                : after.window() instanceof WindowSpec.Sliding s ? s.size() : null;
        if (size == null) {
            return text;
        }
        Duration needed = after.triggers().maxLifetime().plus(size).plus(after.allowedLateness());
        Duration kept = before.effectiveRetention();
        if (kept.compareTo(needed) >= 0) {
            return text;
        }
        return text + "; WARNING: windows opened before keep their items " + Human.derived(kept) + " past their deadline"
                + " (retention), less than the new maxLifetime + window size + allowedLateness (" + Human.derived(needed)
                + "): a new window that starts where an old one did and still takes events after the old one's items expired"
                + " starts again under the old window's id: raise retention first, and change the window once those windows"
                + " have expired";
    }

    private static String idOf(PipelineConfig p) {
        return p.eventId() == null ? "the SQS message id" : p.eventId().expression();
    }

    /**
     * A window's items expire {@code allowedLateness + retention} (and a little more) after its hard deadline, with the
     * values in force when it opened; a later lateness that outlasts them would let a late event find the window gone
     * and open it again, and fire its first revision a second time.
     */
    private static String latenessChange(PipelineConfig before, PipelineConfig after) {
        String applies = "applies to late events from now on, of windows opened before too: each is judged against its"
                + " window's end and hard deadline + " + Durations.format(after.allowedLateness());
        Duration kept = before.allowedLateness().plus(before.effectiveRetention());
        if (after.allowedLateness().compareTo(kept) < 0) {
            return applies;
        }
        return applies + "; WARNING: windows opened before keep their items only " + Human.derived(kept) + " past their hard"
                + " deadline (the old allowedLateness + retention), so a late event after that would open one again and fire its"
                + " first revision a second time: raise retention first, and the lateness once those windows have expired";
    }

    /**
     * A new correction delay applies to the corrections already pending too. But a correction is due at the latest a
     * lease and {@link WindowMachine#correctionMargin} before its window's items expire, which they do {@code
     * allowedLateness + late.correctionDelay + retention} (and a lease) after its hard deadline, with the values in force
     * when it opened: a longer delay that does not fit in that is cut short for the windows opened before.
     */
    private static String lateChange(PipelineConfig before, PipelineConfig after) {
        Duration delay = after.late().correctionDelay();
        if (delay.equals(before.late().correctionDelay())) {
            return "applies to late events from now on";
        }
        String applies = "applies to late events from now on, and to the corrections already pending";
        Duration kept = before.allowedLateness().plus(before.late().correctionDelay()).plus(before.effectiveRetention());
        Duration margin = WindowMachine.correctionMargin(after);
        if (delay.compareTo(before.late().correctionDelay()) < 0 || after.allowedLateness().plus(delay).plus(margin).compareTo(kept) <= 0) {
            return applies;
        }
        return applies + "; WARNING: windows opened before keep their items only " + Human.derived(kept) + " past their hard"
                + " deadline (the old allowedLateness + correctionDelay + retention), and a correction is due " + Human.derived(margin)
                + " before that at the latest, so in those windows a correction may come sooner than the new delay of "
                + Durations.format(delay) + ", with the late events gathered until then: raise retention first, and the delay once"
                + " those windows have expired";
    }

    private static boolean same(Object a, Object b) {
        return Objects.equals(String.valueOf(a), String.valueOf(b));
    }
}
