package dev.fanin.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * The timeline's tables: every revision of a pipeline with its processing times and what it missed, and every late
 * event with its disposition. Tables stay readable for hundreds of keys, where lanes would not.
 */
final class TimelineTables {

    private TimelineTables() {
    }

    static String revisions(TimelineFacts f) {
        StringBuilder t = new StringBuilder("<table class=\"revisions\"><thead><tr><th>key</th><th>window (event time)</th><th>rev</th>"
                + "<th>reason</th><th>complete</th><th>seen / expected</th><th>missing</th><th>closed (processing)</th>"
                + "<th>emitted</th><th>closed after window end</th></tr></thead><tbody>\n");
        for (JsonNode a : f.aggregates()) {
            Instant end = TimelineFacts.instant(a.path("window").path("end"));
            Instant closed = TimelineFacts.instant(a.path("closedAt"));
            t.append("<tr class=\"").append(a.path("complete").asBoolean() ? "complete" : "incomplete").append("\"><td class=\"k\">")
                    .append(HtmlTimeline.escape(a.path("key").asText())).append("</td><td>")
                    .append(a.path("window").path("start").asText()).append(" &ndash; ").append(a.path("window").path("end").asText())
                    .append("</td><td>").append(a.path("revision").asInt())
                    .append(a.hasNonNull("corrects") ? " (corrects r" + (a.path("revision").asInt() - 1) + ")" : "")
                    .append("</td><td>").append(a.path("closeReason").asText()).append("</td><td>")
                    .append(a.path("complete").asBoolean() ? "yes" : "no").append("</td><td>").append(a.path("seen").asLong())
                    .append(" / ").append(a.hasNonNull("expected") ? a.path("expected").asText() : "&ndash;").append("</td><td>")
                    .append(missing(a)).append("</td><td>").append(a.path("closedAt").asText()).append("</td><td>")
                    .append(a.path("emittedAt").asText("&ndash;")).append("</td><td>").append(lag(Duration.between(end, closed)))
                    .append("</td></tr>\n");
        }
        return t.append("</tbody></table>\n").toString();
    }

    static String late(TimelineFacts f) {
        if (f.late().isEmpty()) {
            return "<p>No event went to the side output. Late events within the allowed lateness are counted into their "
                    + "window and show as corrections (revisions above 0) in the table above.</p>\n";
        }
        StringBuilder t = new StringBuilder("<table class=\"late\"><thead><tr><th>key</th><th>event id</th><th>event time</th>"
                + "<th>watermark then</th><th>disposition</th></tr></thead><tbody>\n");
        for (JsonNode r : f.late()) {
            t.append("<tr><td class=\"k\">").append(HtmlTimeline.escape(r.path("key").asText())).append("</td><td class=\"k\">")
                    .append(HtmlTimeline.escape(r.path("eventId").asText())).append("</td><td>").append(r.path("eventTime").asText())
                    .append("</td><td>").append(r.path("watermark").asText("&ndash;")).append("</td><td>side output: ")
                    .append(HtmlTimeline.escape(r.path("reason").asText())).append("</td></tr>\n");
        }
        return t.append("</tbody></table>\n").toString();
    }

    private static String missing(JsonNode a) {
        if (a.path("missing").isArray() && !a.path("missing").isEmpty()) {
            StringBuilder m = new StringBuilder("members ");
            a.path("missing").forEach(n -> m.append(m.length() > 8 ? ", " : "").append(n.asInt()));
            return m + (a.path("missingTruncated").asBoolean() ? ", ..." : "");
        }
        return a.hasNonNull("missingCount") && a.path("missingCount").asLong() > 0 ? a.path("missingCount").asLong() + " events" : "&ndash;";
    }

    /** "+12.3 s", "-4 s" (a revision closed before its window's end: by completeness or count). */
    private static String lag(Duration d) {
        double s = d.toMillis() / 1000.0;
        return (s >= 0 ? "+" : "") + (Math.abs(s) < 100 ? String.format("%.1f s", s) : String.format("%.0f s", s));
    }
}
