package dev.fanin.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fanin.core.config.FaninConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replay drawn as one self-contained HTML page (inline SVG and CSS, no script, no external resource), per pipeline:
 * the watermark's progress against processing time with each close on it ({@link WatermarkChart}); every revision
 * with when it closed and was emitted and what it missed, and every late event with its disposition
 * ({@link TimelineTables}); and, for the first {@value #MAX_LANES} keys, an event-time lane per key: each revision as
 * a bar over its [start, end), the events as ticks, late events from the side output as red ticks.
 */
final class HtmlTimeline {

    /** Keys drawn as lanes per pipeline; the tables list every key (a page of hundreds of lanes is not read). */
    static final int MAX_LANES = 40;
    private static final int WIDTH = 1000;
    private static final int LEFT = 10;
    private static final int ROW = 22;

    private HtmlTimeline() {
    }

    /** One key's lane: its windows, on-time event times and late event times. */
    private record Lane(List<JsonNode> windows, List<Instant> events, List<Instant> late) {
        Lane() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    static void write(Path file, FaninConfig config, List<TraceMessage> trace, Collection<JsonNode> aggregates,
                      List<String> lateLines) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, render(config, trace, aggregates, lateLines), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String render(FaninConfig config, List<TraceMessage> trace, Collection<JsonNode> aggregates, List<String> lateLines) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fanin replay</title><style>")
                .append("body{font:13px system-ui,sans-serif;margin:20px;color:#222}h2{font-size:16px;margin:28px 0 6px}")
                .append("h3{font-size:14px;margin:14px 0 4px}.k{font-family:monospace}.legend span{margin-right:14px}")
                .append("svg{border:1px solid #ddd;background:#fcfcfc}table{border-collapse:collapse;font-size:12px}")
                .append("td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}tr.incomplete td{background:#fdf1e3}")
                .append("</style></head><body>\n<h1>fanin replay</h1>\n<p class=\"legend\">")
                .append("<span style=\"color:#2b7bb9\">&#9632; revision, complete</span>")
                .append("<span style=\"color:#e08a1e\">&#9632; revision, incomplete</span>")
                .append("<span style=\"color:#8e44ad\">&#9632; correction</span>")
                .append("<span style=\"color:#2ca02c\">&#9473; watermark</span>")
                .append("<span>| event</span><span style=\"color:#d62728\">| late event (side output)</span></p>\n");
        Map<String, TimelineFacts> pipelines = TimelineFacts.of(config, trace, aggregates, lateLines);
        pipelines.values().forEach(f -> html.append(section(f)));
        if (pipelines.isEmpty()) {
            html.append("<p>Nothing was accepted or emitted.</p>");
        }
        html.append("</body></html>\n");
        return html.toString();
    }

    private static String section(TimelineFacts f) {
        Map<String, Lane> lanes = new TreeMap<>();
        f.aggregates().forEach(a -> lanes.computeIfAbsent(a.path("key").asText(), k -> new Lane()).windows().add(a));
        f.arrivals().forEach(a -> lanes.computeIfAbsent(a.key(), k -> new Lane()).events().add(a.eventTime()));
        f.late().forEach(r -> lanes.computeIfAbsent(r.path("key").asText(), k -> new Lane()).late()
                .add(TimelineFacts.instant(r.path("eventTime"))));
        StringBuilder s = new StringBuilder("<section class=\"pipeline\" id=\"pipeline-").append(escape(f.pipeline())).append("\">\n<h2>pipeline ")
                .append(escape(f.pipeline())).append("</h2>\n<p>").append(f.arrivals().size()).append(" events over ").append(lanes.size())
                .append(lanes.size() == 1 ? " key" : " keys").append(", ").append(f.aggregates().size()).append(" revisions emitted, ")
                .append(f.late().size()).append(" late events to the side output</p>\n<h3>watermark and closes</h3>\n")
                .append(WatermarkChart.svg(f)).append("<h3>revisions</h3>\n").append(TimelineTables.revisions(f))
                .append("<h3>late events</h3>\n").append(TimelineTables.late(f)).append("<h3>keys (event time)</h3>\n");
        int drawn = 0;
        for (Map.Entry<String, Lane> lane : lanes.entrySet()) {
            if (drawn++ == MAX_LANES) {
                s.append("<p>").append(lanes.size() - MAX_LANES).append(" more keys are not drawn; the tables above list them all.</p>\n");
                break;
            }
            s.append(svg(lane.getKey(), lane.getValue()));
        }
        return s.append("</section>\n").toString();
    }

    private static String svg(String title, Lane lane) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (JsonNode w : lane.windows()) {
            min = Math.min(min, millis(w.path("window").path("start")));
            max = Math.max(max, millis(w.path("window").path("end")));
        }
        for (Instant t : concat(lane.events(), lane.late())) {
            min = Math.min(min, t.toEpochMilli());
            max = Math.max(max, t.toEpochMilli() + 1);
        }
        long span = Math.max(1, max - min);
        int height = ROW * (lane.windows().size() + 1) + 30;
        StringBuilder s = new StringBuilder();
        s.append("<h4 class=\"k\">").append(escape(title)).append("</h4>\n<svg width=\"").append(WIDTH + 2 * LEFT)
                .append("\" height=\"").append(height).append("\" xmlns=\"http://www.w3.org/2000/svg\">\n");
        int y = 6;
        for (JsonNode w : lane.windows()) {
            double x1 = x(millis(w.path("window").path("start")), min, span);
            double x2 = x(millis(w.path("window").path("end")), min, span);
            boolean correction = w.path("revision").asInt() > 0;
            String colour = correction ? "#8e44ad" : w.path("complete").asBoolean() ? "#2b7bb9" : "#e08a1e";
            String label = "r" + w.path("revision").asInt() + " " + w.path("closeReason").asText()
                    + (w.path("complete").asBoolean() ? "" : " incomplete") + " seen=" + w.path("seen").asLong()
                    + (correction ? " corrects " + w.path("corrects").asText() : "");
            s.append(String.format("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" opacity=\"0.8\"><title>%s</title></rect>",
                    x1, y, Math.max(2, x2 - x1), ROW - 6, colour, escape(w.path("aggregateId").asText() + " " + label)));
            s.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#000\">%s</text>\n",
                    x1 + 3, y + ROW - 10, escape(label)));
            y += ROW;
        }
        int tickY = y + 2;
        for (Instant t : lane.events()) {
            s.append(tick(x(t.toEpochMilli(), min, span), tickY, "#222", t));
        }
        for (Instant t : lane.late()) {
            s.append(tick(x(t.toEpochMilli(), min, span), tickY, "#d62728", t));
        }
        s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">%s</text>", LEFT, height - 4,
                escape(Instant.ofEpochMilli(min).toString())));
        s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\" text-anchor=\"end\">%s</text>\n",
                WIDTH + LEFT, height - 4, escape(Instant.ofEpochMilli(max).toString())));
        s.append("</svg>\n");
        return s.toString();
    }

    private static String tick(double x, int y, String colour, Instant t) {
        return String.format("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"><title>%s</title></line>",
                x, y, x, y + 14, colour, t);
    }

    private static double x(long millis, long min, long span) {
        return LEFT + (double) (millis - min) * WIDTH / span;
    }

    private static long millis(JsonNode iso) {
        return Instant.parse(iso.asText()).toEpochMilli();
    }

    private static List<Instant> concat(List<Instant> a, List<Instant> b) {
        List<Instant> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
