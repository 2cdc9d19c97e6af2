package dev.fanin.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Parsed flags of one command. Both {@code --flag value} and {@code --flag=value} are accepted; a flag may be given
 * once; there are no positional arguments. Every mistake is a {@link UsageException} naming the flag.
 */
public final class Flags {

    private final Map<String, String> values;

    private Flags(Map<String, String> values) {
        this.values = values;
    }

    public static Flags parse(String command, List<String> args, List<Flag> known) throws UsageException {
        Map<String, Flag> byName = new LinkedHashMap<>();
        known.forEach(flag -> byName.put(flag.name(), flag));
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || arg.equals("--")) {
                throw new UsageException("fanin " + command + ": unexpected argument \"" + arg + "\"; flags start with --"
                        + (known.isEmpty() ? "" : " (" + names(known) + ")"));
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg.substring(2) : arg.substring(2, equals);
            Flag flag = byName.get(name);
            if (flag == null) {
                throw new UsageException("fanin " + command + ": unknown flag --" + name
                        + (known.isEmpty() ? "; it takes no flags" : "; known flags: " + names(known)));
            }
            if (values.containsKey(name)) {
                throw new UsageException("fanin " + command + ": --" + name + " is given twice; give it once");
            }
            String value;
            if (!flag.takesValue()) {
                if (equals >= 0) {
                    throw new UsageException("fanin " + command + ": --" + name + " takes no value");
                }
                value = "true";
            } else if (equals >= 0) {
                value = arg.substring(equals + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException("fanin " + command + ": --" + name + " needs a value: " + flag.synopsis());
            }
            values.put(name, value);
        }
        return new Flags(values);
    }

    private static String names(List<Flag> known) {
        return known.stream().map(flag -> "--" + flag.name()).collect(Collectors.joining(", "));
    }

    public Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }
}
