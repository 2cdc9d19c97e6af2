package dev.fanin.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * The streams and environment a command talks through: tests pass captured streams and their own variables,
 * {@link FaninCli#main} the process's own. Results go to {@code out}; prompts, notes and errors to {@code err}, so
 * that {@code out} can be redirected to a file.
 *
 * @param env the environment variables a command reads (AWS_REGION, AWS_ENDPOINT_URL, credentials)
 */
public record Console(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {

    public Console {
        env = Map.copyOf(env);
    }
}
