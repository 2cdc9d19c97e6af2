package dev.fanin.cli.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The replay's JSON Lines outputs in {@code DIR}. Appends are committed by recording each file's length in the
 * {@link ReplayState}; a restarted replay first cuts every file back to its committed length, so a line written by
 * a process that died before committing it is not written twice.
 */
final class OutputFiles {

    static final String AGGREGATES = "aggregates.jsonl";
    static final String LATE = "late.jsonl";
    static final String DEAD_LETTERS = "dead-letters.jsonl";
    static final List<String> ALL = List.of(AGGREGATES, LATE, DEAD_LETTERS);

    private final Path directory;

    OutputFiles(Path directory) {
        this.directory = directory;
    }

    Path path(String name) {
        return directory.resolve(name);
    }

    /** Cuts every output back to its committed length (0 for a new replay), creating missing files. */
    void restore(Map<String, Long> committed) {
        try {
            Files.createDirectories(directory);
            for (String name : ALL) {
                Path file = path(name);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    channel.truncate(committed.getOrDefault(name, 0L));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the outputs in " + directory, e);
        }
    }

    void append(String name, String jsonLine) {
        try {
            Files.writeString(path(name), jsonLine + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path(name), e);
        }
    }

    /** The current length of every output, to commit in the state. */
    void lengthsInto(Map<String, Long> offsets) {
        try {
            for (String name : ALL) {
                offsets.put(name, Files.size(path(name)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the outputs in " + directory, e);
        }
    }

    List<String> lines(String name) {
        try {
            List<String> lines = new ArrayList<>();
            for (String line : Files.readAllLines(path(name), StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path(name), e);
        }
    }
}
