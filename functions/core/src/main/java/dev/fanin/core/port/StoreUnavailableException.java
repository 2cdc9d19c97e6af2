package dev.fanin.core.port;

/** A transient store failure (throttling, timeout, 5xx): the work should be retried later, by a redelivery of its input. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
