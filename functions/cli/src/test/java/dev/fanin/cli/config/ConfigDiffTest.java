package dev.fanin.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigDiffTest {

    private static final String UPLOADS = """
              - name: uploads
                match: [{path: $.type, equals: upload}]
                key: [$.batch]
                window: {type: session, gap: 10m}
                triggers: {maxLifetime: 2h, count: 100, expected: {count: 3}}
                incomplete: {policy: hold, atDeadline: fire-flagged}
                aggregations:
                  - {name: files, type: count}
            """;
    private static final String ALERTS = """
              - name: alerts
                match: [{path: $.type, equals: alert}]
                key: [$.service]
                window: {type: session, gap: 30s}
                triggers: {maxLifetime: 10m}
            """;

    @Test
    void nothingChangesWhenOnlyADefaultIsWrittenOut() {
        FaninConfig deployed = load(UPLOADS + ALERTS);
        FaninConfig next = load(UPLOADS + ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    retention: 7d"));
        assertThat(ConfigDiff.between(deployed, next)).isEmpty();
    }

    @Test
    void eachChangeSaysWhatItDoesToOpenWindows() {
        FaninConfig deployed = load(UPLOADS + ALERTS);
        FaninConfig next = load(UPLOADS.replace("gap: 10m", "gap: 20m").replace("maxLifetime: 2h, count: 100", "maxLifetime: 1h, count: 50")
                .replace("  - {name: files, type: count}", "  - {name: files, type: count}\n      - {name: size, type: sum, path: $.size}")
                + ALERTS.replace("name: alerts", "name: alerts-v2"));

        List<String> changes = ConfigDiff.between(deployed, next).stream().map(ConfigDiff.Change::toString).toList();

        assertThat(changes).containsExactly(
                "uploads: window changed -> new events extend sessions by the new gap; open sessions keep the ends their"
                        + " events gave them and close at their own end or deadline",
                "uploads: triggers.maxLifetime changed -> applies to windows opened from now on; open windows keep their hard deadline",
                "uploads: triggers (count, expected, sentinel) changed -> applies to open windows at their next visit; windows"
                        + " already held stay held until an event reaches them or their hard deadline: release them with fanin"
                        + " windows close --pipeline uploads --all-held --note TEXT",
                "uploads: aggregation size added -> in open windows it covers only the events from now on",
                "alerts: renamed to alerts-v2 -> new events go to new windows of alerts-v2; open windows of alerts get no more and"
                        + " close under its old definition, by PT10M after they opened at the latest");
    }

    /** The first pipeline whose rules a message meets takes it: a swap is a routing change, not layout. */
    @Test
    void pipelinesPutInAnotherOrderAreAChangeOfRouting() {
        List<ConfigDiff.Change> changes = ConfigDiff.between(load(UPLOADS + ALERTS), load(ALERTS + UPLOADS));

        assertThat(changes).singleElement().hasToString("alerts, uploads: pipeline order changed (was uploads, alerts) -> a"
                + " message goes to the first pipeline whose match rules it meets: where their rules overlap, new events go to"
                + " another pipeline than before; open windows of the one they left get no more of them and close by their triggers");
        assertThat(ConfigDiff.between(load(UPLOADS + ALERTS), load(UPLOADS + ALERTS.replace("name: alerts", "name: alerts-v2"))))
                .as("a rename keeps the order").noneMatch(c -> c.what().startsWith("pipeline order"));
    }

    /** A held window is decided again only when an event reaches it or at its deadline: the diff says how to release it. */
    @Test
    void aTriggerOrPolicyChangeOfAHoldingPipelineSaysHeldWindowsStayHeld() {
        FaninConfig deployed = load(UPLOADS);
        FaninConfig next = load(UPLOADS.replace("maxLifetime: 2h, count: 100", "maxLifetime: 2h, count: 50"));

        assertThat(ConfigDiff.between(deployed, next)).singleElement().hasToString("uploads: triggers (count, expected,"
                + " sentinel) changed -> applies to open windows at their next visit; windows already held stay held until an"
                + " event reaches them or their hard deadline: release them with fanin windows close --pipeline uploads"
                + " --all-held --note TEXT");
    }

    /** A tumbling window of another size: open windows get no more events (docs/CONFIGURATION.md, "Events"). */
    @Test
    void aNewTumblingSizeSendsNewEventsToNewWindows() {
        String daily = ALERTS.replace("window: {type: session, gap: 30s}", "window: {type: tumbling, size: 1d}")
                .replace("maxLifetime: 10m", "maxLifetime: 2d");
        List<ConfigDiff.Change> changes = ConfigDiff.between(load(daily), load(daily.replace("size: 1d", "size: 12h")));

        assertThat(changes).singleElement().hasToString("alerts: window changed -> new events go to windows of the new shape;"
                + " open windows get no more of them, keep their bounds and kind and close at their own end or deadline");
    }

    @Test
    void aRemovedPipelineClosesItsWindowsUnderItsLastDefinition() {
        List<ConfigDiff.Change> changes = ConfigDiff.between(load(UPLOADS + ALERTS), load(ALERTS));
        assertThat(changes).singleElement().hasToString("uploads: removed -> open windows get no more events and close under its"
                + " last definition, by PT2H after they opened at the latest (hold if incomplete)");
    }

    /**
     * A longer lateness applies to windows that have fired; one that outlasts what those windows keep their items for
     * (the old lateness + retention past their hard deadline) is flagged: a late event could then find a window gone.
     */
    @Test
    void aLatenessChangeSaysItAppliesToFiredWindowsAndWarnsWhenItOutlastsTheirItems() {
        FaninConfig deployed = load(ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    allowedLateness: 2m"));
        FaninConfig hour = load(ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    allowedLateness: 1h"));
        FaninConfig weeks = load(ALERTS.replace("triggers: {maxLifetime: 10m}",
                "triggers: {maxLifetime: 10m}\n    allowedLateness: 8d\n    retention: 9d"));

        assertThat(ConfigDiff.between(deployed, hour)).singleElement().hasToString("alerts: allowedLateness changed -> applies to"
                + " late events from now on, of windows opened before too: each is judged against its window's end and hard deadline + 1h");
        assertThat(ConfigDiff.between(deployed, weeks)).extracting(ConfigDiff.Change::openWindows).first().asString()
                .contains("hard deadline + 8d; WARNING: windows opened before keep their items only 7d 7m past their hard deadline");
    }

    /**
     * A longer correction delay applies to pending corrections too; one that does not fit in what the windows opened
     * before keep their items for (the old lateness + delay + retention past their hard deadline, less the hour a
     * correction is due before that at the latest) is flagged: their corrections would come sooner than it.
     */
    @Test
    void aLongerCorrectionDelayWarnsWhenItDoesNotFitInTheItemsOfWindowsOpenedBefore() {
        FaninConfig deployed = load(ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    late: {correctionDelay: 1m}"));
        FaninConfig hour = load(ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    late: {correctionDelay: 1h}"));
        FaninConfig weeks = load(ALERTS.replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 10m}\n    late: {correctionDelay: 7d}"));

        assertThat(ConfigDiff.between(deployed, hour)).singleElement()
                .hasToString("alerts: late changed -> applies to late events from now on, and to the corrections already pending");
        assertThat(ConfigDiff.between(hour, deployed)).singleElement().extracting(ConfigDiff.Change::openWindows).asString()
                .doesNotContain("WARNING");
        assertThat(ConfigDiff.between(hour, load(ALERTS.replace("triggers: {maxLifetime: 10m}",
                "triggers: {maxLifetime: 10m}\n    late: {tooLate: drop, correctionDelay: 1h}")))).singleElement()
                .hasToString("alerts: late changed -> applies to late events from now on");
        assertThat(ConfigDiff.between(deployed, weeks)).singleElement().extracting(ConfigDiff.Change::openWindows).asString()
                .contains("; WARNING: windows opened before keep their items only 7d 6m past their hard deadline (the old"
                        + " allowedLateness + correctionDelay + retention), and a correction is due 1h before that at the latest,"
                        + " so in those windows a correction may come sooner than the new delay of 7d");
    }

    /**
     * A new time window that starts where one opened before did, and still takes events after the old one's items
     * expired, starts again under the old window's id: the diff warns when the old retention is shorter than the new
     * maxLifetime + window size + allowedLateness (docs/CONFIGURATION.md; found by a review).
     */
    @Test
    void aLongerWindowWarnsWhenTheItemsOfWindowsOpenedBeforeDoNotLastIt() {
        String hourly = ALERTS.replace("window: {type: session, gap: 30s}", "window: {type: tumbling, size: 1h}")
                .replace("triggers: {maxLifetime: 10m}", "triggers: {maxLifetime: 2d}\n    retention: 1h\n"
                        + "    eventTime: {path: $.t, maxPast: 30m, maxFuture: 1m}");
        FaninConfig deployed = load(hourly);
        FaninConfig daily = load(hourly.replace("size: 1h", "size: 1d"));
        FaninConfig halfHourly = load(hourly.replace("size: 1h", "size: 30m"));

        assertThat(ConfigDiff.between(deployed, daily)).singleElement().extracting(ConfigDiff.Change::openWindows).asString()
                .contains("; WARNING: windows opened before keep their items 1h past their deadline (retention), less than the new"
                        + " maxLifetime + window size + allowedLateness (3d)");
        assertThat(ConfigDiff.between(deployed, halfHourly)).singleElement().extracting(ConfigDiff.Change::openWindows).asString()
                .contains("(2d 30m)");
        assertThat(ConfigDiff.between(load(hourly.replace("retention: 1h", "retention: 4d")), load(hourly.replace("retention: 1h",
                "retention: 4d").replace("size: 1h", "size: 1d")))).singleElement().extracting(ConfigDiff.Change::openWindows)
                .asString().doesNotContain("WARNING");
    }

    /**
     * Windows opened before a new eventId hold the ids of the old definition (for none configured, the SQS message id):
     * an event delivered again across the change is counted again in them. Added, changed and removed alike say so,
     * and what to do instead.
     */
    @Test
    void aChangedEventIdWarnsThatAnEventDeliveredAgainIntoAWindowOpenedBeforeIsCountedAgain() {
        FaninConfig byMessageId = load(ALERTS);
        FaninConfig byAlertId = load(ALERTS.replace("key: [$.service]", "key: [$.service]\n    eventId: $.alertId"));
        FaninConfig byId = load(ALERTS.replace("key: [$.service]", "key: [$.service]\n    eventId: $.id"));

        assertThat(List.of(ConfigDiff.between(byMessageId, byAlertId), ConfigDiff.between(byAlertId, byId),
                ConfigDiff.between(byId, byMessageId))).allSatisfy(changes -> assertThat(changes).singleElement()
                .satisfies(c -> assertThat(c.what()).isEqualTo("eventId changed"))
                .extracting(ConfigDiff.Change::openWindows).asString()
                .contains("; WARNING: windows opened before hold the ids of their events by the old definition, so an event"
                        + " delivered again across the change (a redelivery, a dead-letter redrive, a replay) into one of them while"
                        + " it takes events (until its hard deadline + allowedLateness) is counted a second time, as a correction"
                        + " if the window has fired: rename the pipeline in the same change")
                .contains("or publish when none of its windows is open or within its allowedLateness"));
        assertThat(ConfigDiff.between(byMessageId, byAlertId).get(0).openWindows())
                .startsWith("new events are deduplicated by $.alertId instead of the SQS message id;");
        assertThat(ConfigDiff.between(byId, byMessageId).get(0).openWindows())
                .startsWith("new events are deduplicated by the SQS message id instead of $.id;");
    }

    @Test
    void anAggregationOfAnotherTypeOrFieldStartsEmptyAndOtherSettingsKeepItsValue() {
        String before = UPLOADS.replace("  - {name: files, type: count}", "  - {name: files, type: count}\n"
                + "      - {name: size, type: sum, path: $.size}\n      - {name: names, type: distinct-values, path: $.name, cap: 10}");
        String after = UPLOADS.replace("  - {name: files, type: count}", "  - {name: files, type: distinct-ids}\n"
                + "      - {name: size, type: sum, path: $.bytes}\n      - {name: names, type: distinct-values, path: $.name, cap: 20}");

        assertThat(ConfigDiff.between(load(before), load(after))).extracting(ConfigDiff.Change::toString).containsExactly(
                "uploads: aggregation files changed type -> starts empty in open windows",
                "uploads: aggregation size reads another field ($.bytes) -> starts empty in open windows",
                "uploads: aggregation names changed -> open windows keep what it holds and go on with the new settings");
    }

    private static FaninConfig load(String pipelines) {
        return ConfigLoader.load("version: 1\npipelines:\n" + pipelines, "test.yaml");
    }
}
