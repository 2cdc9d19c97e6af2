package dev.fanin.bench.coldstart;

import dev.fanin.testkit.LocalAwsEndpoint;
import dev.fanin.testkit.LocalResources;
import dev.fanin.testkit.TemplateResources;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fanin bench cold-start}: starts the local endpoint (moto through the testkit, or {@code AWS_ENDPOINT_URL}),
 * creates the resources of template.yaml, then starts {@code runs} fresh JVMs of
 * {@code java [jvm options] -cp <shaded jar>:<probe classes> FirstBatchMain} per jar and reports, per JVM option set
 * and jar, the wall time from process start to the first batch handled (median and range), with the jar's size.
 * Several jars (comma-separated, e.g. before and after a change) are run in turn, one JVM of each at a time, so they
 * share the machine's load and their ratio is what carries over.
 *
 * <pre>
 *   ColdStartMain &lt;shaded jar&gt;[,&lt;another&gt;...] &lt;probe classes dir&gt; [runs=5]
 * </pre>
 */
public final class ColdStartMain {

    private ColdStartMain() { }

    public static void main(String[] args) throws IOException, InterruptedException {
        List<Path> jars = Arrays.stream(args[0].split(",")).map(Path::of).toList();
        String probe = args[1];
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        LocalAwsEndpoint endpoint = LocalAwsEndpoint.shared();
        LocalResources resources = TemplateResources.load(TemplateResources.locateTemplate()).createOn(endpoint, "cold-");
        for (Path jar : jars) {
            System.out.printf("jar %s: %.1f MB; endpoint %s (%s)%n", jar, Files.size(jar) / 1e6, endpoint.endpoint(), endpoint.kind());
        }
        for (List<String> options : List.of(List.<String>of(), List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1"),
                List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC"))) {
            Map<Path, List<Long>> walls = new LinkedHashMap<>();
            Map<Path, List<String>> lines = new LinkedHashMap<>();
            for (int r = 0; r < runs; r++) {
                for (Path jar : jars) {
                    FirstBatch first = firstBatch(jar, probe, options, resources, endpoint);
                    lines.computeIfAbsent(jar, j -> new ArrayList<>()).add(first.line());
                    walls.computeIfAbsent(jar, j -> new ArrayList<>()).add(first.wallMillis());
                }
            }
            for (Path jar : jars) {
                List<Long> sorted = new ArrayList<>(walls.get(jar));
                Collections.sort(sorted);
                System.out.printf("options %s, %s: process start to first batch handled %d ms median [%d-%d] over %d JVMs; probe lines %s%n",
                        options.isEmpty() ? "(none)" : String.join(" ", options), jar.getFileName(), sorted.get(sorted.size() / 2),
                        sorted.get(0), sorted.get(sorted.size() - 1), runs, lines.get(jar));
            }
        }
        endpoint.close();
    }

    /** The probe's result line, and the wall time from process start to the moment it printed it. */
    private record FirstBatch(String line, long wallMillis) { }

    /** One fresh JVM of the probe on {@code jar}, timed to its first batch handled (not to its exit). */
    private static FirstBatch firstBatch(Path jar, String probe, List<String> options, LocalResources resources, LocalAwsEndpoint endpoint)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(options);
        command.addAll(List.of("-cp", jar + java.io.File.pathSeparator + probe, FirstBatchMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.putAll(resources.functionEnvironment());
        env.put("AWS_ENDPOINT_URL", endpoint.endpoint().toString());
        env.putIfAbsent("AWS_REGION", "us-east-1");
        env.putIfAbsent("AWS_ACCESS_KEY_ID", "fanin-local");
        env.putIfAbsent("AWS_SECRET_ACCESS_KEY", "fanin-local");
        long begin = System.nanoTime();
        Process process = builder.start();
        FirstBatch result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("init_ms=") && result == null) {
                    result = new FirstBatch(line, (System.nanoTime() - begin) / 1_000_000);
                }
            }
        }
        process.waitFor();
        if (result == null) {
            throw new IllegalStateException("the probe printed no result; exit " + process.exitValue());
        }
        return result;
    }
}
