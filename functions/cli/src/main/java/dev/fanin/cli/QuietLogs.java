package dev.fanin.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The functions log every window event as JSON (docs/OPERATIONS.md), which is right in Lambda and noise in a command
 * that prints its own report: {@code fanin bench} and {@code fanin simulate} run the services many thousand times, and
 * the operator commands run the functions' runtime while their own output (also {@code --json}) goes to stdout.
 */
public final class QuietLogs {

    private QuietLogs() {
    }

    public static void off() {
        Configurator.setLevel("dev.fanin", Level.OFF);
        Configurator.setRootLevel(Level.OFF);
    }
}
