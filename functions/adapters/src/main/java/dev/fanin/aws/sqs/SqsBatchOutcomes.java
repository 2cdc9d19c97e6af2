package dev.fanin.aws.sqs;

import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.TransientFailures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/** What a {@code SendMessageBatch} call did to each entry: SQS's sender fault is what makes a failure permanent. */
final class SqsBatchOutcomes {

    private SqsBatchOutcomes() { }

    /** One outcome per entry, in order; an entry SQS answered neither way is retried. */
    static List<EntryOutcome> of(List<SendMessageBatchRequestEntry> entries, SendMessageBatchResponse response) {
        Map<String, BatchResultErrorEntry> failures = new HashMap<>();
        response.failed().forEach(f -> failures.put(f.id(), f));
        Set<String> sent = new HashSet<>();
        response.successful().stream().map(SendMessageBatchResultEntry::id).forEach(sent::add);
        List<EntryOutcome> outcomes = new ArrayList<>();
        for (SendMessageBatchRequestEntry entry : entries) {
            BatchResultErrorEntry failure = failures.get(entry.id());
            if (failure != null) {
                outcomes.add(EntryOutcome.failed(failure.code() + ": " + failure.message(), !Boolean.TRUE.equals(failure.senderFault())));
            } else if (sent.contains(entry.id())) {
                outcomes.add(EntryOutcome.SENT);
            } else {
                outcomes.add(EntryOutcome.failed("NoResult: SendMessageBatch returned no result for the entry", true));
            }
        }
        return outcomes;
    }

    /** Every entry of a call that failed as a whole (after the SDK's own retries), retryably when it was transient. */
    static List<EntryOutcome> failedCall(int entries, SdkException failure) {
        return Collections.nCopies(entries, EntryOutcome.failed(TransientFailures.describe(failure), TransientFailures.isTransient(failure)));
    }
}
