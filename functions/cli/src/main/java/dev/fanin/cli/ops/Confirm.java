package dev.fanin.cli.ops;

import dev.fanin.cli.Console;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** A yes/no question on the terminal (stderr, answered on stdin); anything but y or yes, or no input, is no. */
public final class Confirm {

    private Confirm() {
    }

    public static boolean ask(Console console, String question) throws IOException {
        console.err().print(question + " [y/N] ");
        console.err().flush();
        String answer = new BufferedReader(new InputStreamReader(console.in(), StandardCharsets.UTF_8)).readLine();
        return answer != null && List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT));
    }
}
