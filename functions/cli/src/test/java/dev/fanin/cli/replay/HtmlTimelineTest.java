package dev.fanin.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay's timeline as an operator reads it, rendered by headless Chromium (Debian's package; .ci/run installs it):
 * processing time of each close and emission, the watermark, missing members, late events with their disposition,
 * and a day of hundreds of keys that stays readable (every key in the tables, the first lanes drawn).
 */
class HtmlTimelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path dir;

    @Test
    void aReplayedTraceShowsWhenEachRevisionClosedWhatItMissedAndTheLateEvents() throws Exception {
        FaninConfig config = ConfigLoader.load(ReplayRun.CONFIG);
        List<TraceMessage> trace = TraceReader.read(ReplayRun.trace("file-uploads"));
        ReplayRun run = ReplayRun.run(ReplayRun.trace("file-uploads"), dir.resolve("out"), 0, 0, 1);

        String dom = rendered(HtmlTimeline.render(config, trace, run.aggregatesById().values(), run.lateRecords()));

        assertThat(dom).contains("pipeline file-uploads", "watermark and closes", "closed (processing)", "emitted");
        List<List<String>> rows = rows(dom, "revisions");
        assertThat(rows).hasSize(run.aggregatesById().size());
        for (JsonNode a : run.aggregatesById().values()) {
            assertThat(rows).as("a row for " + a.path("aggregateId").asText()).anySatisfy(row -> assertThat(row).containsSubsequence(
                    a.path("key").asText(), a.path("closeReason").asText(), a.path("complete").asBoolean() ? "yes" : "no")
                    .contains(a.path("closedAt").asText()));
        }
        assertThat(rows).as("the batch whose manifest promised 4 files and got 2").anySatisfy(row ->
                assertThat(row).contains("HARD_LIFETIME", "no", "2 events"));
        if (run.lateRecords().isEmpty()) {
            assertThat(dom).contains("No event went to the side output");
        } else {
            assertThat(rows(dom, "late")).hasSize(run.lateRecords().size()).allSatisfy(row -> assertThat(String.join(" ", row))
                    .contains("side output: TOO_LATE"));
        }
    }

    @Test
    void aDayOfThreeHundredKeysListsEveryKeyAndDrawsTheFirstLanes() throws Exception {
        FaninConfig config = ConfigLoader.load(ReplayRun.CONFIG);
        Instant day = Instant.parse("2026-11-29T00:00:00Z");
        List<TraceMessage> trace = new ArrayList<>();
        List<JsonNode> aggregates = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            Instant finished = day.plus(Duration.ofMinutes(4L * k));
            for (int shard = 0; shard < 2; shard++) {
                trace.add(new TraceMessage(trace.size() + 1, finished.plusSeconds(shard), "{\"type\":\"shard.done\",\"jobId\":\"job-" + k
                        + "\",\"runId\":\"r1\",\"shard\":" + shard + ",\"shardCount\":3,\"finishedAt\":\"" + finished.plusSeconds(shard)
                        + "\",\"rows\":1}", "m" + trace.size(), Map.of()));
            }
            aggregates.add(aggregate(k, day, finished.plus(Duration.ofMinutes(30))));
        }

        String dom = rendered(HtmlTimeline.render(config, trace, aggregates, List.of()));

        assertThat(rows(dom, "revisions")).hasSize(300).allSatisfy(row -> assertThat(row).contains("HARD_LIFETIME", "members 2"));
        assertThat(count(dom, "<h4 class=\"k\">")).isEqualTo(HtmlTimeline.MAX_LANES);
        assertThat(dom).contains("260 more keys are not drawn; the tables above list them all.", "600 events over 300 keys");
        assertThat(count(dom, "<polyline class=\"wm\"")).isEqualTo(1);
    }

    /** job-k of the shard pipeline fired flagged at its deadline with shard 2 missing. */
    private static ObjectNode aggregate(int k, Instant day, Instant closedAt) {
        ObjectNode a = JSON.createObjectNode();
        a.put("aggregateId", "x/job-" + k + "/r0").put("pipeline", "shard-completions").put("key", "job-" + k + "|r1").put("revision", 0)
                .put("closeReason", "HARD_LIFETIME").put("complete", false).put("seen", 2).put("expected", 3)
                .put("closedAt", closedAt.toString()).put("emittedAt", closedAt.plusMillis(120).toString()).putNull("corrects");
        a.putObject("window").put("start", day.toString()).put("end", day.plus(Duration.ofDays(1)).toString());
        a.putArray("missing").add(2);
        return a;
    }

    /** The page as headless Chromium renders it (its DOM after load); the page's own text when Chromium is absent. */
    private String rendered(String html) throws IOException, InterruptedException {
        Path page = Files.writeString(dir.resolve("timeline.html"), html, StandardCharsets.UTF_8);
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed (.ci/run installs it): "
                + "the timeline is checked without rendering it");
        Path shot = dir.resolve("timeline.png");
        List<String> flags = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium"), "--window-size=1200,1600");
        List<String> dump = new ArrayList<>(List.of(CHROMIUM.toString()));
        dump.addAll(flags);
        dump.addAll(List.of("--dump-dom", page.toUri().toString()));
        Process process = new ProcessBuilder(dump).redirectError(dir.resolve("chromium.log").toFile()).start();
        String dom = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(dom).as("chromium rendered the page; log: %s", Files.readString(dir.resolve("chromium.log"))).contains("<h1>fanin replay</h1>");
        List<String> screenshot = new ArrayList<>(List.of(CHROMIUM.toString()));
        screenshot.addAll(flags);
        screenshot.addAll(List.of("--screenshot=" + shot, page.toUri().toString()));
        Process shooter = new ProcessBuilder(screenshot).redirectErrorStream(true).redirectOutput(dir.resolve("shot.log").toFile()).start();
        assertThat(shooter.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.size(shot)).as("a screenshot of the page").isGreaterThan(10_000);
        return dom;
    }

    /** The cells of each body row of the table with this class, as text. */
    private static List<List<String>> rows(String dom, String tableClass) {
        int start = dom.indexOf("<table class=\"" + tableClass + "\">");
        assertThat(start).as("a table " + tableClass).isNotNegative();
        String table = dom.substring(start, dom.indexOf("</table>", start));
        List<List<String>> rows = new ArrayList<>();
        Matcher row = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL).matcher(table.substring(table.indexOf("<tbody>")));
        while (row.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = Pattern.compile("<td[^>]*>(.*?)</td>", Pattern.DOTALL).matcher(row.group(1));
            while (cell.find()) {
                cells.add(cell.group(1).replaceAll("<[^>]+>", "").replace("&amp;", "&").trim());
            }
            rows.add(cells);
        }
        return rows;
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
