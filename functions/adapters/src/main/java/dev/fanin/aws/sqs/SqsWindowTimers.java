package dev.fanin.aws.sqs;

import dev.fanin.core.port.WindowTimers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Arms window wake-ups as delayed messages on the timer queue. SQS delays at most 15 minutes, so a later due time
 * gets a 900 s delay and the timer function re-arms (or the sweeper closes the window first); a due time already
 * past gets no delay. Best effort per {@link WindowTimers}: {@link #arm} throws a failure to send, {@link #armAll}
 * returns the wake-ups it could not send; the sweeper backs every timer.
 */
public final class SqsWindowTimers implements WindowTimers {

    public static final int MAX_DELAY_SECONDS = 900;
    /** Entries SQS takes in one SendMessageBatch. */
    public static final int MAX_BATCH = 10;

    private static final Logger LOG = LoggerFactory.getLogger(SqsWindowTimers.class);

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsWindowTimers(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    @Override
    public void arm(Wakeup wakeup, Instant now) {
        sqs.sendMessage(request(wakeup, now));
    }

    /**
     * One {@code SendMessageBatch} per ten wake-ups (each entry with its own delay), so a batch closing or extending
     * ten windows pays one SQS request instead of ten. Every chunk is tried; entries SQS refused, and the entries of
     * chunks that failed, are logged with the reason and returned.
     */
    @Override
    public List<Wakeup> armAll(List<Wakeup> wakeups, Instant now) {
        List<Wakeup> notArmed = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int from = 0; from < wakeups.size(); from += MAX_BATCH) {
            List<Wakeup> chunk = wakeups.subList(from, Math.min(wakeups.size(), from + MAX_BATCH));
            try {
                SendMessageBatchResponse response = sqs.sendMessageBatch(batchRequest(chunk, now));
                for (BatchResultErrorEntry error : response.failed()) {
                    Wakeup w = chunk.get(Integer.parseInt(error.id()));
                    notArmed.add(w);
                    reasons.add(w.ref() + " (" + error.code() + ")");
                }
            } catch (SdkException e) {
                notArmed.addAll(chunk);
                chunk.forEach(w -> reasons.add(w.ref() + " (" + e.getClass().getSimpleName() + ")"));
            }
        }
        if (!notArmed.isEmpty()) {
            LOG.warn("timers not armed: {}", String.join(", ", reasons));
        }
        return notArmed;
    }

    SendMessageBatchRequest batchRequest(List<Wakeup> chunk, Instant now) {
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < chunk.size(); i++) {
            Wakeup w = chunk.get(i);
            entries.add(SendMessageBatchRequestEntry.builder()
                    .id(Integer.toString(i))
                    .messageBody(new TimerMessage(w).toJson())
                    .delaySeconds(delaySeconds(w.dueAt(), now))
                    .build());
        }
        return SendMessageBatchRequest.builder().queueUrl(queueUrl).entries(entries).build();
    }

    SendMessageRequest request(Wakeup wakeup, Instant now) {
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(new TimerMessage(wakeup).toJson())
                .delaySeconds(delaySeconds(wakeup.dueAt(), now))
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
