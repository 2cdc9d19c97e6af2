package dev.fanin.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the launcher in-process with captured streams. */
record CliRun(int exit, String out, String err) {

    static CliRun run(String... args) {
        return withInput("", args);
    }

    static CliRun withInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new FaninCli(FaninCli.commands()).run(args,
                    new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e);
        }
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
