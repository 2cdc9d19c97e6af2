package dev.fanin.lambda;

/** No valid pipeline configuration has been read: an invocation (or an operator command) cannot run. */
public final class NoValidConfigurationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NoValidConfigurationException(String message) {
        super(message);
    }
}
