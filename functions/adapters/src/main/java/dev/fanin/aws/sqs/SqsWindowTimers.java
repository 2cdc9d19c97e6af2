package dev.fanin.aws.sqs;

import dev.fanin.core.port.WindowTimers;
import dev.fanin.core.window.WindowRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Arms window wake-ups as delayed messages on the timer queue. SQS delays at most 15 minutes, so a later due time
 * gets a 900 s delay and the timer function re-arms (or the sweeper closes the window first); a due time already
 * past gets no delay. Best effort per {@link WindowTimers}: a failure to send propagates to the caller, which may
 * ignore it because the sweeper backs every timer.
 */
public final class SqsWindowTimers implements WindowTimers {

    public static final int MAX_DELAY_SECONDS = 900;

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsWindowTimers(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    @Override
    public void arm(WindowRef ref, Instant dueAt, Instant now) {
        sqs.sendMessage(request(ref, dueAt, now));
    }

    SendMessageRequest request(WindowRef ref, Instant dueAt, Instant now) {
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(new TimerMessage(ref, dueAt).toJson())
                .delaySeconds(delaySeconds(dueAt, now))
                .build();
    }

    /** {@code clamp(ceil((dueAt - now) / 1 s), 0, 900)}: rounding up so that a timer never fires before its due time. */
    public static int delaySeconds(Instant dueAt, Instant now) {
        Duration wait = Duration.between(now, dueAt);
        if (wait.isNegative() || wait.isZero()) {
            return 0;
        }
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return (int) Math.min(seconds, MAX_DELAY_SECONDS);
    }
}
