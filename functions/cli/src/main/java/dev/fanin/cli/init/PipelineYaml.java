package dev.fanin.cli.init;

import dev.fanin.core.config.ConfigDefaults;
import dev.fanin.core.config.Durations;
import dev.fanin.core.config.Envelope;
import dev.fanin.core.config.IncompletePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes the pipeline YAML of {@code fanin init}: every choice followed from the answers and justified in a comment. Pure. */
public final class PipelineYaml {

    private PipelineYaml() {
    }

    /** @throws IllegalArgumentException when the answers cannot make a valid pipeline (see {@link PipelineDesign#of}) */
    public static String write(InitAnswers a) {
        PipelineDesign d = PipelineDesign.of(a);
        Lines y = new Lines();
        y.line("# fanin pipeline written by `fanin init`; every field is explained in docs/CONFIGURATION.md.");
        y.line("# Events: " + prose(a.events()));
        y.line("# Action: " + prose(a.action()));
        y.line("# Transport: SQS, at-least-once and unordered: duplicates are dropped by event id, order comes from event time.");
        y.line("# Check: fanin validate --config <this file>. The design it implies: fanin explain --config <this file>.");
        y.line("version: 1");
        y.line("pipelines:");
        y.line("  - name: " + quote(a.name()));
        y.line("    # No match conditions: this pipeline takes every message. Add conditions before adding a second pipeline.");
        y.line("    envelope: " + yamlName(a.envelope()) + "   # " + envelopeReason(a.envelope()));
        y.line("    key:   # the fields a batch is grouped by; one window per key");
        for (KeyPart part : a.key()) {
            y.line(part.extract() == null ? "      - " + quote(part.path())
                    : "      - {path: " + quote(part.path()) + ", extract: " + quote(part.extract()) + "}");
        }
        if (a.eventId() != null) {
            y.line("    eventId: " + quote(a.eventId()) + "   # dedupe: a redelivered or repeated event with this id counts once");
        } else {
            y.line("    # eventId: the " + (a.envelope() == Envelope.S3 ? "object key (the loader's S3 default)" : "SQS message id")
                    + " identifies an event for dedupe; set eventId if the producer can send one event twice");
        }
        eventTime(y, a, d);
        window(y, a, d);
        triggers(y, a, d);
        y.line("    watermark:");
        y.line("      outOfOrderness: " + Durations.format(d.outOfOrderness()) + (d.outOfOrderness().equals(a.maxDelay())
                ? "   # events trail the newest one by up to " + Durations.format(a.maxDelay()) + ", so a window waits that long after its end"
                : "   # half of what your deadline leaves after a window's end; events trailing by more, up to "
                        + Durations.format(a.maxDelay()) + ", correct the fired aggregate (allowedLateness)"));
        y.line("      idleAfter: " + Durations.format(d.idleAfter()) + "   # with no event for this long, the watermark moves with the "
                + "clock so an idle key still closes");
        y.line("    allowedLateness: " + Durations.format(d.allowedLateness()) + (d.allowedLateness().isZero()
                ? "   # events are never late by more than the watermark waits: no corrections"
                : "   # an event later than estimated, by up to this much more, still corrects the fired aggregate"));
        y.line("    late:");
        y.line("      tooLate: side-output   # anything later goes to the late-event queue with its reason, never silently lost");
        incomplete(y, a, d);
        y.line("    aggregations:   # add sums, min/max, distinct values as needed (docs/CONFIGURATION.md#aggregations)");
        y.line("      - {name: count, type: count}");
        y.line("      - {name: samples, type: last, n: 5}");
        y.line("    bounds:");
        y.line("      maxEventsPerWindow: " + d.maxEventsPerWindow() + "   # " + boundReason(a, d));
        y.line("      onOverflow: split   # a window that outgrows the bound fires a revision and continues, never a failed write loop");
        y.line("    emit:");
        y.line("      eventbridge:   # one event per closed window, its aggregate id stable across re-emissions");
        y.line("        bus: \"${FANIN_EMIT_BUS_NAME}\"");
        y.line("    retention: " + Durations.format(d.retention()) + "   # closed windows are kept this long for dedupe and corrections, "
                + "then expire by TTL");
        return y.text();
    }

    private static void eventTime(Lines y, InitAnswers a, PipelineDesign d) {
        boolean widePast = d.maxPast() != null;
        if (a.eventTime() == null && !widePast) {
            y.line("    # eventTime: " + (a.envelope() == Envelope.RAW ? "none is read: the SQS sent timestamp stands in"
                    : "the envelope's own timestamp, falling back to the SQS sent timestamp"));
            return;
        }
        y.line("    eventTime:   # windows are assigned by when the event happened, not when it arrived");
        if (a.eventTime() != null) {
            y.line("      path: " + quote(a.eventTime()));
        }
        if (widePast) {
            y.line("      maxPast: " + Durations.format(d.maxPast()) + "   # events may trail by " + Durations.format(a.maxDelay())
                    + ": accept event times that far back");
        }
    }

    private static void window(Lines y, InitAnswers a, PipelineDesign d) {
        y.line("    window:");
        switch (a.grouping()) {
            case QUIET -> {
                y.line("      # session window: \"quiet for " + Durations.format(a.quietGap()) + "\" grouping; a burst of any length "
                        + "is one batch, and it ends after " + Durations.format(a.quietGap()) + " without an event for its key");
                if (a.sentinelMatches() != null || a.expectedCount() != null || a.expectedCountPath() != null) {
                    y.line("      # a batch is what comes within the gap: an end marker or a missing event whose time is more than "
                            + Durations.format(a.quietGap()));
                    y.line("      # after the batch's last event starts a session of its own; make the gap longer than the longest"
                            + " such wait");
                }
                y.line("      type: session");
                y.line("      gap: " + Durations.format(a.quietGap()));
            }
            case FIXED -> {
                y.line("      # tumbling window: fixed " + Durations.format(a.size()) + " periods, each event in exactly one, reported once");
                y.line("      type: tumbling");
                y.line("      size: " + Durations.format(a.size()));
            }
            case OVERLAPPING -> {
                y.line("      # sliding window: the last " + Durations.format(a.size()) + ", refreshed every " + Durations.format(a.slide())
                        + " (each event is in " + a.size().toMillis() / a.slide().toMillis() + " windows)");
                y.line("      type: sliding");
                y.line("      size: " + Durations.format(a.size()));
                y.line("      slide: " + Durations.format(a.slide()));
            }
        }
    }

    private static void triggers(Lines y, InitAnswers a, PipelineDesign d) {
        y.line("    triggers:");
        if (a.expectedCount() != null) {
            y.line("      expected:   # a batch has a known size: it closes the moment that many distinct events are in");
            y.line("        count: " + a.expectedCount());
        } else if (a.expectedCountPath() != null) {
            y.line("      expected:   # each event says how many the batch holds: it closes when that many are in");
            y.line("        countPath: " + quote(a.expectedCountPath()));
        }
        if (a.sentinelMatches() != null) {
            y.line("      sentinel:   # an end-of-batch marker closes the batch");
            y.line("        when: {path: " + quote(a.sentinelPath()) + ", matches: " + quote(a.sentinelMatches()) + "}");
        }
        if (d.lifetimeIsDeadline()) {
            y.line("      maxLifetime: " + Durations.format(d.maxLifetime()) + "   # your deadline: every window fires by then at the latest");
        } else {
            y.line("      maxLifetime: " + Durations.format(d.maxLifetime()) + "   # no deadline given: a backstop "
                    + (a.grouping() == InitAnswers.Grouping.QUIET
                    ? PipelineDesign.SESSION_LIFETIME_GAPS + " quiet gaps long, so a burst that never calms down still fires"
                    : "of twice the window plus the watermark's delays, so the window's end closes it first")
                    + "; every window must close");
        }
    }

    private static void incomplete(Lines y, InitAnswers a, PipelineDesign d) {
        y.line("    incomplete:");
        if (d.policy() == IncompletePolicy.Mode.HOLD) {
            y.line("      # firing early is harmful: an incomplete window is held (alerting through HeldWindows) until it completes;");
            y.line("      # at maxLifetime it fires flagged complete=false, an explicit decision, never an accident of timing");
            y.line("      policy: hold");
            y.line("      atDeadline: fire-flagged");
        } else if (d.policy() == IncompletePolicy.Mode.FIRE_AND_RECONCILE) {
            y.line("      # firing early is merely suboptimal: fire with complete=false and what is missing, then correct it as the");
            y.line("      # missing events arrive");
            y.line("      policy: fire-and-reconcile");
        } else if (a.incompleteHarmful()) {
            y.line("      # WARNING: you said firing early is harmful, but nothing tells fanin what a complete batch is. Add a batch");
            y.line("      # size (triggers.expected) or an end marker (triggers.sentinel), then use policy: hold. Until then a window");
            y.line("      # is complete when it reaches its end, and one cut short by maxLifetime fires flagged complete=false.");
            y.line("      policy: fire-partial");
        } else {
            y.line("      # no batch size or end marker: a window is complete at its end; one cut short by maxLifetime fires");
            y.line("      # flagged complete=false");
            y.line("      policy: fire-partial");
        }
    }

    private static String boundReason(InitAnswers a, PipelineDesign d) {
        String reason = "about " + d.estimatedEventsPerWindow() + " events per window at " + rate(a.peakRate())
                + " events/s for " + (a.grouping() == InitAnswers.Grouping.QUIET ? "a whole lifetime" : "a whole window");
        if (d.maxEventsPerWindow() == ConfigDefaults.MAX_EVENTS_PER_WINDOW) {
            return reason + ": the default bound is enough";
        }
        return reason + ", with room to spare" + (a.expectedCount() != null ? ", and at least the batch size" : "");
    }

    private static String rate(double rate) {
        return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
    }

    private static String envelopeReason(Envelope envelope) {
        return switch (envelope) {
            case RAW -> "the SQS body is the event";
            case EVENTBRIDGE -> "an EventBridge rule delivers to the queue: the event is in detail";
            case SNS -> "an SNS subscription (not raw delivery): the event is the JSON in Message";
            case S3 -> "S3 event notifications: each record is one event";
        };
    }

    static String yamlName(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A YAML double-quoted scalar: backslash, quote and control characters escaped. */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /** Free text on one comment line. */
    private static String prose(String text) {
        return text.replaceAll("\\p{Cntrl}", " ").strip();
    }

    private static final class Lines {
        private final List<String> lines = new ArrayList<>();

        void line(String line) {
            lines.add(line);
        }

        String text() {
            return String.join("\n", lines) + "\n";
        }
    }

}
