package dev.fanin.aws;

import dev.fanin.core.port.AggregateEmitter.Request;
import dev.fanin.core.port.AggregateEmitter.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * fanin's one retry loop, for the entries of batch calls (emitters, timers, BatchWriteItem's unprocessed items): send
 * entries in batches, keep what each entry's own result says (a batch call is never all-or-nothing), resend only the
 * entries that failed retryably, after the policy's backoff. A whole call that fails is retried by the SDK's own
 * retry strategy (its default), never again by fanin.
 */
public final class PartialBatchRetry {

    /** What became of one entry of one call. */
    public record EntryOutcome(boolean sent, String error, boolean retryable) {

        public static final EntryOutcome SENT = new EntryOutcome(true, null, false);

        public static EntryOutcome failed(String error, boolean retryable) {
            return new EntryOutcome(false, error, retryable);
        }
    }

    /** Sends one batch (request indices) and returns one outcome per index, in the same order. */
    @FunctionalInterface
    public interface BatchCall {
        List<EntryOutcome> send(List<Integer> batch);
    }

    private PartialBatchRetry() { }

    /**
     * @param requests   all requests
     * @param refused    requests that are not sent at all, by index, with their error (no target, too large)
     * @param batcher    splits indices to send into batches within the service's limits
     * @param call       the service call for one batch
     */
    public static List<Result> run(List<Request> requests, Map<Integer, String> refused,
            Function<List<Integer>, List<List<Integer>>> batcher, BatchCall call, RetryPolicy policy) {
        EntryOutcome[] outcomes = outcomes(requests.size(), refused, batcher, call, policy);
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            EntryOutcome outcome = outcomes[i];
            results.add(new Result(requests.get(i).aggregateId(), outcome.sent(), outcome.sent() ? null : outcome.error()));
        }
        return results;
    }

    /**
     * The loop itself, for any batch call: entries {@code 0..size-1}, each sent until it succeeds, fails for good,
     * or has had {@code policy.maxAttempts()} calls.
     *
     * @return the last outcome of each entry, by index
     */
    public static EntryOutcome[] outcomes(int size, Map<Integer, String> refused,
            Function<List<Integer>, List<List<Integer>>> batcher, BatchCall call, RetryPolicy policy) {
        EntryOutcome[] outcomes = new EntryOutcome[size];
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (refused.containsKey(i)) {
                outcomes[i] = EntryOutcome.failed(refused.get(i), false);
            } else {
                pending.add(i);
            }
        }
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            List<Integer> retry = new ArrayList<>();
            for (List<Integer> batch : batcher.apply(pending)) {
                List<EntryOutcome> results = call.send(batch);
                for (int j = 0; j < batch.size(); j++) {
                    EntryOutcome outcome = results.get(j);
                    outcomes[batch.get(j)] = outcome;
                    if (!outcome.sent() && outcome.retryable()) {
                        retry.add(batch.get(j));
                    }
                }
            }
            if (retry.isEmpty() || attempt == policy.maxAttempts()) {
                break;
            }
            policy.sleeper().sleep(policy.backoffAfter(attempt));
            pending = retry;
        }
        return outcomes;
    }
}
