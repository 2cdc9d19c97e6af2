package dev.fanin.cli;

/** The command line itself is wrong (unknown flag, missing value, bad value): exit code 2, nothing done. */
public final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
