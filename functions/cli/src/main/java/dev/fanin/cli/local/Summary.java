package dev.fanin.cli.local;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/** The table printed when a local run ends: what fired, what is still open and when it will close, what was missed. */
final class Summary {

    private Summary() {
    }

    static void print(PrintStream out, LocalRun.Outcome outcome, RunWatcher watcher, int sent, int batches, int sweeps,
                      Duration maxWait) {
        List<Seen.Aggregate> aggregates = watcher.aggregates();
        List<Seen.Window> windows = watcher.windows();
        long corrections = aggregates.stream().filter(a -> a.corrects() != null).count();
        long incomplete = aggregates.stream().filter(a -> !a.complete()).count();
        long tooLate = watcher.sideRecords().stream().filter(r -> !r.kind().equals("WINDOW_DEAD_LETTERED")).count();
        out.println();
        out.println("summary (" + (outcome.settled() ? "everything settled" : "--max-wait " + maxWait.toSeconds() + "s reached") + ")");
        out.printf("  %-18s %d%n", "messages sent", sent);
        out.printf("  %-18s %d ingest/timer batches, %d sweeps%n", "invocations", batches, sweeps);
        out.printf("  %-18s %d (%d open or held, %d closed, %d merged)%n", "windows", windows.size(),
                windows.stream().filter(Seen.Window::isOpen).count(),
                windows.stream().filter(w -> w.status().equals("CLOSED")).count(),
                windows.stream().filter(w -> w.status().equals("MERGED")).count());
        out.printf("  %-18s %d (of which corrections %d, incomplete %d)%n", "aggregates fired", aggregates.size(), corrections, incomplete);
        out.printf("  %-18s %d corrected, %d to the side output%n", "late events", corrections, tooLate);
        out.printf("  %-18s %d%n", "dead letters", watcher.deadLetters().size());

        if (!aggregates.isEmpty()) {
            out.println();
            out.printf("  %-18s %-44s %3s %-17s %-10s %s%n", "pipeline", "key", "rev", "close reason", "complete", "seen/expected");
            for (Seen.Aggregate a : aggregates) {
                out.printf("  %-18s %-44s %3d %-17s %-10s %s%n", a.pipeline(), a.key(), a.revision(), a.closeReason(),
                        a.complete() ? "yes" : "NO", a.seen() + (a.expected() == null ? "" : "/" + a.expected())
                                + (a.missing() == null ? "" : " missing " + a.missing()));
            }
        }
        List<Seen.Window> open = windows.stream()
                .filter(Seen.Window::isOpen).toList();
        if (!open.isEmpty()) {
            out.println();
            out.println("  still open (each fires by its hard deadline at the latest, as its incomplete policy says; not waited for):");
            for (Seen.Window w : open) {
                out.printf("  %-18s %-44s %-7s %d events, next check %s, hard deadline %s%n", w.pipeline(), w.key(), w.status(),
                        w.events(), w.due() == null ? "-" : LiveView.CLOCK.format(w.due()),
                        w.hardDeadline() == null ? "-" : LiveView.CLOCK.format(w.hardDeadline()));
            }
        }
        out.println();
        for (Seen.Window w : outcome.overdue()) {
            out.println("  PROBLEM: " + w.id() + " is still " + w.status() + " past its hard deadline " + LiveView.CLOCK.format(w.hardDeadline()));
        }
        for (String m : outcome.missing()) {
            out.println("  PROBLEM: expected, did not happen: " + m);
        }
        if (outcome.succeeded()) {
            out.println("  ok: everything expected happened");
        }
    }
}
