package dev.fanin.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints {@link CostLines}: per profile, every line of fanin's and the competent design's bill and the price of each
 * guarantee fanin has and the design lacks; across profiles, the same as one table per side and line.
 */
final class CostReport {

    private CostReport() { }

    static void profile(PrintStream out, CostLines fanin, CostLines competent) {
        out.println("Where each dollar goes (per event; $ per million events):");
        out.println();
        out.println("| fanin line item | pays for | calls | write units | read units | $ / M |");
        out.println("|---|---|---:|---:|---:|---:|");
        fanin.lines().forEach(l -> out.printf(Locale.ROOT, "| %s | %s | %.4f | %.4f | %.4f | %.4f |%n", l.item(), l.guarantee().title(),
                l.calls(), l.writeUnits(), l.readUnits(), l.dollars()));
        out.printf(Locale.ROOT, "| **fanin total** | | | | | **%.4f** |%n%n", fanin.total());
        out.println("| competent design line item | calls | write units | read units | $ / M |");
        out.println("|---|---:|---:|---:|---:|");
        competent.lines().forEach(l -> out.printf(Locale.ROOT, "| %s | %.4f | %.4f | %.4f | %.4f |%n", l.item(), l.calls(), l.writeUnits(),
                l.readUnits(), l.dollars()));
        out.printf(Locale.ROOT, "| **competent total** | | | | **%.4f** |%n%n", competent.total());
        out.println("| guarantee the competent design lacks | what it buys | $ / M |");
        out.println("|---|---|---:|");
        fanin.byGuarantee().forEach((g, dollars) -> {
            if (g != Guarantee.CORE) {
                out.printf(Locale.ROOT, "| %s | %s | %.4f |%n", g.title(), g.description(), dollars);
            }
        });
        out.printf(Locale.ROOT, "| **fanin without them** | %s | **%.4f** |%n", Guarantee.CORE.description(), fanin.core());
        out.printf(Locale.ROOT, "| competent design | | %.4f |%n", competent.total());
        out.printf(Locale.ROOT, "| fanin without them / competent; fanin / competent | | %.2f; %.2f |%n%n", fanin.core() / competent.total(),
                fanin.total() / competent.total());
    }

    /** One column per profile: the guarantees' prices, then every line item of each side. */
    static void summary(PrintStream out, List<String> profiles, List<CostLines> fanin, List<CostLines> competent) {
        out.println("## Where each dollar goes, across profiles ($ per million events)");
        out.println();
        header(out, "", profiles);
        row(out, "**fanin total**", fanin.stream().map(CostLines::total).toList());
        for (Guarantee g : Guarantee.values()) {
            if (g != Guarantee.CORE) {
                row(out, g.title(), fanin.stream().map(c -> c.byGuarantee().getOrDefault(g, 0.0)).toList());
            }
        }
        row(out, "**fanin without them**", fanin.stream().map(CostLines::core).toList());
        row(out, "**competent design**", competent.stream().map(CostLines::total).toList());
        List<Double> ratios = new ArrayList<>();
        List<Double> totals = new ArrayList<>();
        for (int i = 0; i < fanin.size(); i++) {
            ratios.add(fanin.get(i).core() / competent.get(i).total());
            totals.add(fanin.get(i).total() / competent.get(i).total());
        }
        row(out, "fanin without them / competent", ratios);
        row(out, "fanin / competent", totals);
        out.println();
        lines(out, "fanin line item", profiles, fanin, true);
        lines(out, "competent design line item", profiles, competent, false);
    }

    /** One row per line group ({@link CostLines.Line#group}), in the order they first come. */
    private static void lines(PrintStream out, String title, List<String> profiles, List<CostLines> sides, boolean withGuarantee) {
        Map<String, Guarantee> items = new LinkedHashMap<>();
        sides.forEach(c -> c.lines().forEach(l -> items.putIfAbsent(l.group(), l.guarantee())));
        header(out, withGuarantee ? title + " | pays for" : title, profiles);
        items.forEach((item, g) -> {
            List<Double> dollars = sides.stream().map(c -> c.lines().stream().filter(l -> l.group().equals(item))
                    .mapToDouble(CostLines.Line::dollars).sum()).toList();
            row(out, withGuarantee ? item + " | " + g.title() : item, dollars);
        });
        out.println();
    }

    private static void header(PrintStream out, String first, List<String> profiles) {
        out.printf("| %s | %s |%n", first, String.join(" | ", profiles));
        out.printf("|%s%s%n", "---|".repeat(first.split("\\|").length), "---:|".repeat(profiles.size()));
    }

    private static void row(PrintStream out, String label, List<Double> values) {
        out.printf("| %s | %s |%n", label, String.join(" | ", values.stream().map(v -> String.format(Locale.ROOT, "%.3f", v)).toList()));
    }
}
