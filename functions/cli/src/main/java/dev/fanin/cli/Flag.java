package dev.fanin.cli;

/**
 * One command-line flag of a command.
 *
 * @param name        without the leading dashes, e.g. {@code config}
 * @param placeholder what the value looks like in help, e.g. {@code FILE}; null for a switch that takes no value
 * @param help        one line
 */
public record Flag(String name, String placeholder, String help) {

    public static Flag valued(String name, String placeholder, String help) {
        return new Flag(name, placeholder, help);
    }

    public static Flag flagSwitch(String name, String help) {
        return new Flag(name, null, help);
    }

    public boolean takesValue() {
        return placeholder != null;
    }

    /** How the flag is written in help, e.g. {@code --config FILE}. */
    public String synopsis() {
        return "--" + name + (takesValue() ? " " + placeholder : "");
    }
}
