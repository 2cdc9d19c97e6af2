package dev.fanin.testkit;

/** No local AWS backend could be resolved or started; the message says what the user can do about it. */
public final class NoLocalAwsEndpointException extends RuntimeException {

    static final String HOW_TO_FIX =
            "no local AWS endpoint: set AWS_ENDPOINT_URL, start Docker for LocalStack, or install moto_server";

    NoLocalAwsEndpointException(String detail, Throwable cause) {
        super(HOW_TO_FIX + " (" + detail + ")", cause);
    }
}
