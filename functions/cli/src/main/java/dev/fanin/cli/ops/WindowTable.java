package dev.fanin.cli.ops;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Windows as a plain-text table, one line each, columns padded to their widest cell. */
final class WindowTable {

    private static final List<String> HEADER = List.of("STATUS", "AGE", "DEADLINE", "COMPLETENESS", "PIPELINE", "KEY", "WINDOW", "WHY");

    private WindowTable() {
    }

    static void print(List<WindowReport> reports, PrintStream out) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (WindowReport r : reports) {
            rows.add(List.of(r.overdue() ? "OVERDUE" : r.state().status().name(), Times.compact(r.age()),
                    Times.iso(r.state().hardDeadline()), r.completeness(), r.state().ref().pipeline(), r.state().ref().key(),
                    r.state().ref().windowId(), r.why()));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size() - 1; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i < row.size() - 1 ? pad(row.get(i), widths[i]) + "  " : row.get(i));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }
}
