package dev.fanin.cli.init;

import dev.fanin.cli.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * Gets one answer: from its flag when given (a bad value is a usage error), else from the default when not
 * interactive, else by asking on the terminal with the default in brackets (an empty line or the end of input takes
 * the default; a bad answer is explained and asked again).
 */
public final class Asker {

    /** Turns answer text into a value, or throws {@link IllegalArgumentException} saying what is wrong. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String text);
    }

    private final Map<String, String> given;
    private final boolean interactive;
    private final BufferedReader in;
    private final PrintStream prompts;

    /** @param given the answers given as flags, by flag name without dashes */
    public Asker(Map<String, String> given, boolean interactive, BufferedReader in, PrintStream prompts) {
        this.given = Map.copyOf(given);
        this.interactive = interactive;
        this.in = in;
        this.prompts = prompts;
    }

    public boolean given(String flag) {
        return this.given.containsKey(flag);
    }

    public boolean interactive() {
        return interactive;
    }

    /**
     * @param flag         the flag that answers the question, without dashes
     * @param question     the question, without the default
     * @param defaultValue the default answer, valid for {@code parser}; empty means "none"
     */
    public <T> T ask(String flag, String question, String defaultValue, Parser<T> parser) throws UsageException {
        Optional<String> given = Optional.ofNullable(this.given.get(flag));
        if (given.isPresent()) {
            try {
                return parser.parse(given.get());
            } catch (IllegalArgumentException e) {
                throw new UsageException("fanin init: --" + flag + " \"" + given.get() + "\": " + e.getMessage());
            }
        }
        if (!interactive) {
            return parser.parse(defaultValue);
        }
        while (true) {
            prompts.print(question + " [" + (defaultValue.isEmpty() ? "none" : defaultValue) + "]: ");
            prompts.flush();
            String line = readLine();
            if (line == null) {
                prompts.println();
                return parser.parse(defaultValue);
            }
            String answer = line.strip().isEmpty() ? defaultValue : line.strip();
            try {
                return parser.parse(answer);
            } catch (IllegalArgumentException e) {
                prompts.println("  " + e.getMessage());
            }
        }
    }

    private String readLine() {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
