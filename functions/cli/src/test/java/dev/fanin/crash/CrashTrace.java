package dev.fanin.crash;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fanin.cli.replay.ReplayRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The crash test's trace: the three sample traces merged, {@code copies} times over with every key, event id and
 * message id made distinct per copy, so the expected outcome is the sample outcome repeated.
 */
final class CrashTrace {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SAMPLES = List.of("alert-storm", "file-uploads", "shard-completions");

    private CrashTrace() {
    }

    static Path write(Path file, int copies) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int copy = 0; copy < copies; copy++) {
            for (String sample : SAMPLES) {
                int n = 0;
                for (String line : Files.readAllLines(ReplayRun.trace(sample), StandardCharsets.UTF_8)) {
                    n++;
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    ObjectNode message = (ObjectNode) JSON.readTree(line);
                    String body = message.get("body").isTextual() ? message.get("body").asText() : message.get("body").toString();
                    String tag = "c" + copy;
                    body = body.replace("\"alert-", "\"" + tag + "-alert-")
                            .replace("-api\"", "-api-" + tag + "\"")
                            .replace("uploads/batch-", "uploads/" + tag + "-batch-")
                            .replace("\"jobId\":\"", "\"jobId\":\"" + tag + "-");
                    message.put("body", body);
                    message.put("messageId", tag + "-" + sample + "-" + (message.has("messageId") ? message.get("messageId").asText() : "line-" + n));
                    lines.add(message.toString());
                }
            }
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }
}
