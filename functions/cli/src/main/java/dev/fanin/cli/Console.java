package dev.fanin.cli;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The streams a command talks through: tests pass captured streams, {@link FaninCli#main} the process's own.
 * Results go to {@code out}; prompts, notes and errors to {@code err}, so that {@code out} can be redirected to a file.
 */
public record Console(InputStream in, PrintStream out, PrintStream err) {
}
