package dev.fanin.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Map;

/**
 * The terminal view of a local run: one timestamped plain-text line per thing that happened (works in CI logs),
 * and, only when the output is a terminal, a status line kept at the bottom and rewritten in place.
 */
final class LiveView implements RunWatcher.Listener, SqsEventSource.Listener {

    static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final PrintStream out;
    private final boolean terminal;
    private final Clock clock;
    private final Instant start;
    private String status = "";
    private int batches;
    private int batchFailures;

    LiveView(PrintStream out, boolean terminal, Clock clock) {
        this.out = out;
        this.terminal = terminal;
        this.clock = clock;
        this.start = clock.instant();
    }

    synchronized void line(String tag, String text) {
        clearStatus();
        Instant now = clock.instant();
        out.printf("%s +%5.1fs  %-11s %s%n", CLOCK.format(now), Duration.between(start, now).toMillis() / 1000.0, tag, text);
        redrawStatus();
    }

    synchronized void note(String text) {
        clearStatus();
        out.println(text);
        redrawStatus();
    }

    /** The one-line progress summary; shown only on a terminal. */
    synchronized void status(String text) {
        if (!terminal) {
            return;
        }
        clearStatus();
        status = "[+" + Duration.between(start, clock.instant()).toSeconds() + "s] " + text;
        redrawStatus();
    }

    synchronized void endStatus() {
        clearStatus();
        status = "";
    }

    synchronized int batches() {
        return batches;
    }

    synchronized int batchFailures() {
        return batchFailures;
    }

    private void clearStatus() {
        if (terminal && !status.isEmpty()) {
            out.print("\r\033[K");
        }
    }

    private void redrawStatus() {
        if (terminal && !status.isEmpty()) {
            out.print(status);
            out.flush();
        }
    }

    @Override
    public void invoked(String function, int records, int failed, boolean threw, Duration took) {
        synchronized (this) {
            batches++;
            batchFailures += failed;
        }
        if (threw) {
            line("RETRY", function + " threw on a batch of " + records + ": SQS redelivers all of it after the visibility timeout");
        } else if (failed > 0) {
            line("RETRY", function + " reported " + failed + " of " + records + " messages failed: SQS redelivers them after the visibility timeout");
        }
    }

    @Override
    public void aggregate(Seen.Aggregate a) {
        StringBuilder text = new StringBuilder(a.pipeline()).append("  ").append(a.key())
                .append("  rev ").append(a.revision()).append("  ").append(a.closeReason())
                .append(a.complete() ? "  complete" : "  INCOMPLETE");
        if (a.expected() != null) {
            text.append(" (").append(a.seen()).append(" of ").append(a.expected()).append(')');
        } else {
            text.append(" (").append(a.seen()).append(a.seen() == 1 ? " event)" : " events)");
        }
        if (a.missing() != null) {
            text.append(" missing ").append(a.missing());
        }
        text.append("  ").append(aggregations(a.aggregations()));
        if (a.corrects() != null) {
            text.append("  corrects ").append(a.corrects());
        }
        line(a.corrects() != null ? "CORRECTION" : "FIRED", text.toString());
    }

    @Override
    public void sideRecord(Seen.SideRecord r) {
        String what = r.kind().equals("WINDOW_DEAD_LETTERED") ? "window dead-lettered" : "late event " + r.eventId();
        line("SIDE-OUTPUT", r.pipeline() + "  " + r.key() + "  " + what + ": " + r.kind() + (r.reason().isEmpty() ? "" : " (" + r.reason() + ")"));
    }

    @Override
    public void deadLetter(Seen.DeadLetter d) {
        line("DEAD-LETTER", (d.reason() == null ? "moved by the queue's redrive policy after maxReceiveCount receives"
                : d.reason()) + "  body: " + UserTraffic.abbreviate(d.body()));
    }

    @Override
    public void windowChanged(Seen.Window before, Seen.Window now) {
        String where = now.pipeline() + "  " + now.key() + "  window " + now.windowId();
        switch (now.status()) {
            case "OPEN" -> {
                if (before == null) {
                    line("OPENED", where + (now.due() == null ? "" : "  (next check " + CLOCK.format(now.due()) + ")"));
                }
            }
            case "HELD" -> line("HELD", where + "  incomplete at its close time: held (policy hold) until complete or its hard"
                    + " deadline " + (now.hardDeadline() == null ? "" : CLOCK.format(now.hardDeadline())));
            case "CLAIMED" -> line("CLOSING", where + "  claimed, emitting");
            case "CLOSED" -> line("CLOSED", where + "  committed");
            case "MERGED" -> line("MERGED", where + "  absorbed into a bridging session");
            default -> { }
        }
    }

    /** {@code alerts=5 resources=[...]}: the aggregations on one line, long values abbreviated. */
    static String aggregations(JsonNode aggregations) {
        StringBuilder text = new StringBuilder();
        Iterator<Map.Entry<String, JsonNode>> fields = aggregations.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (text.length() > 0) {
                text.append(' ');
            }
            String value = field.getValue().isContainerNode() ? field.getValue().toString() : field.getValue().asText();
            text.append(field.getKey()).append('=').append(value.length() <= 60 ? value : value.substring(0, 57) + "...");
        }
        return text.toString();
    }
}
