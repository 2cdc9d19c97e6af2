package dev.fanin.core.intake;

/**
 * A rejection raised deep inside extraction and turned into a {@link Rejected} by {@link MessageIntake}; it never
 * leaves this package. It carries no stack trace: it is an expected outcome, not an error.
 */
final class IntakeFailure extends RuntimeException {

    private final RejectionReason reason;
    private final String detail;

    IntakeFailure(RejectionReason reason, String detail) {
        super(reason + ": " + detail, null, false, false);
        this.reason = reason;
        this.detail = detail;
    }

    RejectionReason reason() {
        return reason;
    }

    String detail() {
        return detail;
    }
}
