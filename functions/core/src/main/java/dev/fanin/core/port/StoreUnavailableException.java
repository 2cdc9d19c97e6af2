package dev.fanin.core.port;

/** A transient store failure (throttling, timeout, 5xx): the work should be retried later, through SQS. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
