package dev.fanin.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Processing time (across) against event time (up): the events as they arrived (grey), the watermark's progress (a
 * green step line), and each revision's close (a dot at its close time and its window's end: blue complete, orange
 * incomplete, purple a correction). A dot right of where the line reaches its height closed by event time; one left of
 * it closed sooner (completeness, count) or later (the hard lifetime is processing time).
 */
final class WatermarkChart {

    static final int WIDTH = 1000;
    static final int HEIGHT = 220;
    private static final int PAD = 40;
    /** Beyond this many events the chart draws every n-th, so a day of traffic stays a light page. */
    private static final int MAX_DOTS = 2_000;

    private WatermarkChart() {
    }

    static String svg(TimelineFacts f) {
        List<Instant> xs = new ArrayList<>();
        List<Instant> ys = new ArrayList<>();
        f.arrivals().forEach(a -> {
            xs.add(a.at());
            ys.add(a.eventTime());
        });
        for (JsonNode a : f.aggregates()) {
            xs.add(TimelineFacts.instant(a.path("closedAt")));
            ys.add(TimelineFacts.instant(a.path("window").path("end")));
        }
        f.watermark().forEach(s -> ys.add(s.watermark()));
        if (xs.isEmpty()) {
            return "";
        }
        Scale x = Scale.of(xs, PAD, WIDTH - PAD);
        Scale y = Scale.of(ys, HEIGHT - PAD, 10);
        StringBuilder s = new StringBuilder(String.format("<svg class=\"watermark\" width=\"%d\" height=\"%d\" "
                + "xmlns=\"http://www.w3.org/2000/svg\"><title>watermark of %s</title>\n", WIDTH, HEIGHT, HtmlTimeline.escape(f.pipeline())));
        int every = Math.max(1, f.arrivals().size() / MAX_DOTS);
        for (int i = 0; i < f.arrivals().size(); i += every) {
            TimelineFacts.Arrival a = f.arrivals().get(i);
            s.append(String.format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"#999\"/>", x.at(a.at()), y.at(a.eventTime())));
        }
        // A step line: flat until the next raise, then up.
        StringBuilder line = new StringBuilder();
        Double previous = null;
        for (TimelineFacts.Step step : f.watermark()) {
            double raised = y.at(step.watermark());
            line.append(String.format("%.1f,%.1f %.1f,%.1f ", x.at(step.at()), previous == null ? raised : previous, x.at(step.at()), raised));
            previous = raised;
        }
        if (previous != null) {
            line.append(String.format("%.1f,%.1f", x.at(x.max), previous));   // flat until the end of the chart
        }
        s.append("<polyline class=\"wm\" fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"1.5\" points=\"").append(line.toString().trim())
                .append("\"><title>watermark: newest event time minus outOfOrderness</title></polyline>\n");
        for (JsonNode a : f.aggregates()) {
            String colour = a.path("revision").asInt() > 0 ? "#8e44ad" : a.path("complete").asBoolean() ? "#2b7bb9" : "#e08a1e";
            s.append(String.format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s r%d %s closed %s (window end %s)</title></circle>",
                    x.at(TimelineFacts.instant(a.path("closedAt"))), y.at(TimelineFacts.instant(a.path("window").path("end"))), colour,
                    HtmlTimeline.escape(a.path("key").asText()), a.path("revision").asInt(), a.path("closeReason").asText(),
                    a.path("closedAt").asText(), a.path("window").path("end").asText()));
        }
        s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">%s</text>", PAD, HEIGHT - 22, x.min));
        s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\" text-anchor=\"end\">%s &rarr; processing time</text>",
                WIDTH - PAD, HEIGHT - 22, x.max));
        s.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">event time %s &ndash; %s</text>\n", PAD, HEIGHT - 6,
                y.min, y.max));
        return s.append("</svg>\n").toString();
    }

    /** Maps instants in [min, max] onto [from, to] pixels. */
    private static final class Scale {
        final Instant min;
        final Instant max;
        final double from;
        final double to;

        private Scale(Instant min, Instant max, double from, double to) {
            this.min = min;
            this.max = max;
            this.from = from;
            this.to = to;
        }

        static Scale of(List<Instant> values, double from, double to) {
            Instant min = values.stream().min(Instant::compareTo).orElseThrow();
            Instant max = values.stream().max(Instant::compareTo).orElseThrow();
            return new Scale(min, max, from, to);
        }

        double at(Instant t) {
            double span = Math.max(1, max.toEpochMilli() - min.toEpochMilli());
            return from + (t.toEpochMilli() - min.toEpochMilli()) / span * (to - from);
        }
    }
}
