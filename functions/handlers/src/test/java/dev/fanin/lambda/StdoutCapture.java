package dev.fanin.lambda;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * Captures what is printed on {@code System.out} while running something: the EMF records (which the EMF library
 * prints at call time in its Local and Lambda environments). The log4j console appender keeps the stream it started
 * with, so log lines are not captured.
 */
final class StdoutCapture {

    record Captured<T>(T result, List<String> lines) { }

    private StdoutCapture() {
    }

    static synchronized <T> Captured<T> run(Supplier<T> work) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        T result;
        try {
            result = work.get();
        } finally {
            System.setOut(original);
        }
        List<String> lines = buffer.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        lines.forEach(original::println);
        return new Captured<>(result, lines);
    }
}
