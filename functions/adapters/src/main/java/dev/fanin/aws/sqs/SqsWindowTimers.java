package dev.fanin.aws.sqs;

import dev.fanin.aws.Batches;
import dev.fanin.aws.PartialBatchRetry;
import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.RetryPolicy;
import dev.fanin.core.port.WindowTimers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
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
    private final RetryPolicy retry;

    public SqsWindowTimers(SqsClient sqs, String queueUrl, RetryPolicy retry) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    public SqsWindowTimers(SqsClient sqs, String queueUrl) {
        this(sqs, queueUrl, RetryPolicy.defaults());
    }

    @Override
    public void arm(Wakeup wakeup, Instant now) {
        sqs.sendMessage(request(wakeup, now));
    }

    /**
     * One {@code SendMessageBatch} per ten wake-ups (each entry with its own delay), so a batch closing or extending
     * ten windows pays one SQS request instead of ten. Entries that failed transiently are sent again per the retry
     * policy; those still not armed (refused by SQS, or out of attempts) are logged with the reason and returned.
     */
    @Override
    public List<Wakeup> armAll(List<Wakeup> wakeups, Instant now) {
        EntryOutcome[] outcomes = PartialBatchRetry.outcomes(wakeups.size(), Map.of(),
                pending -> Batches.of(pending, MAX_BATCH, Long.MAX_VALUE, i -> 0), batch -> send(batch, wakeups, now), retry);
        List<Wakeup> notArmed = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < wakeups.size(); i++) {
            if (!outcomes[i].sent()) {
                notArmed.add(wakeups.get(i));
                reasons.add(wakeups.get(i).ref() + " (" + outcomes[i].error() + ")");
            }
        }
        if (!notArmed.isEmpty()) {
            LOG.warn("timers not armed: {}", String.join(", ", reasons));
        }
        return notArmed;
    }

    private List<EntryOutcome> send(List<Integer> batch, List<Wakeup> wakeups, Instant now) {
        SendMessageBatchRequest request = batchRequest(batch.stream().map(wakeups::get).toList(), now);
        try {
            return SqsBatchOutcomes.of(request.entries(), sqs.sendMessageBatch(request));
        } catch (SdkException e) {
            return SqsBatchOutcomes.failedCall(batch.size(), e);
        }
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
