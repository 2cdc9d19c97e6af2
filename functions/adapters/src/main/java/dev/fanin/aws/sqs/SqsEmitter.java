package dev.fanin.aws.sqs;

import dev.fanin.aws.Batches;
import dev.fanin.aws.EnvReferences;
import dev.fanin.aws.PartialBatchRetry;
import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.StableHash;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.port.AggregateEmitter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Emits aggregates as SQS messages to each pipeline's queue ({@link EmitTarget.Sqs}), with
 * {@code SendMessageBatch} (at most 10 messages and {@link #MAX_CALL_BYTES} per call).
 *
 * <p>FIFO queues: {@code MessageGroupId} is {@code <pipeline>:<first 16 hex of SHA-256(key)>}, so the revisions
 * of one key's windows stay in order while keys run in parallel; {@code MessageDeduplicationId} is the SHA-256 hex
 * of the aggregate id (64 characters, within SQS's 128 and free of characters SQS forbids), so a re-emission
 * within SQS's deduplication interval is dropped by the transport. Per-entry failures are retried when SQS says
 * they are not the sender's fault.
 */
public final class SqsEmitter implements AggregateEmitter {

    public static final int MAX_ENTRIES_PER_CALL = 10;
    /** A message and a call: an emit queue is assumed to have SQS's default {@code MaximumMessageSize}. */
    public static final long MAX_CALL_BYTES = SinkLimits.SQS_MESSAGE_BYTES;

    private final SqsClient sqs;
    private final Map<String, EmitTarget.Sqs> targets;
    private final RetryPolicy retry;

    public SqsEmitter(SqsClient sqs, FaninConfig config, Function<String, String> env, RetryPolicy retry) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.targets = resolveTargets(config, env);
    }

    /**
     * The SQS targets of {@code config}'s pipelines, their {@code ${...}} references resolved against {@code env}: what
     * a function builds at cold start, and what {@code fanin config publish} checks against a stack's environment.
     *
     * @throws IllegalStateException naming the pipeline and the reference that is not set, or that resolves to a
     *                               standard queue while {@code fifo} is true
     */
    public static Map<String, EmitTarget.Sqs> resolveTargets(FaninConfig config, Function<String, String> env) {
        Map<String, EmitTarget.Sqs> resolved = new HashMap<>();
        for (PipelineConfig pipeline : config.pipelines()) {
            if (pipeline.emit() instanceof EmitTarget.Sqs target) {
                String url = EnvReferences.resolve(target.queueUrl(), env, "pipeline '" + pipeline.name() + "' emit.queueUrl");
                // The loader checks fifo against a URL written out; a reference is checked here, once resolved. A FIFO
                // queue takes only messages with a group id, so its URL decides (the loader defaults a reference to false).
                boolean urlIsFifo = url.endsWith(".fifo");
                if (target.fifo() && !urlIsFifo) {
                    throw new IllegalStateException("pipeline '" + pipeline.name() + "' emit.queueUrl " + target.queueUrl() + " resolves to "
                            + url + ", which does not end in \".fifo\", but fifo is true; FIFO queue URLs end in \".fifo\"");
                }
                resolved.put(pipeline.name(), new EmitTarget.Sqs(url, urlIsFifo));
            }
        }
        return Map.copyOf(resolved);
    }

    public SqsEmitter(SqsClient sqs, FaninConfig config, Function<String, String> env) {
        this(sqs, config, env, RetryPolicy.defaults());
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        Map<Integer, String> refused = new HashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            if (!targets.containsKey(request.pipeline())) {
                refused.put(i, "NoTarget: pipeline '" + request.pipeline() + "' has no SQS target");
            } else if (bodyBytes(request) > MAX_CALL_BYTES) {
                refused.put(i, "MessageTooLong: " + bodyBytes(request) + " bytes, SQS allows " + MAX_CALL_BYTES);
            }
        }
        return PartialBatchRetry.run(requests, refused, pending -> batches(pending, requests),
                batch -> send(batch, requests), retry);
    }

    /** Batches per queue: a SendMessageBatch call goes to one queue. */
    private List<List<Integer>> batches(List<Integer> pending, List<Request> requests) {
        Map<String, List<Integer>> byQueue = new LinkedHashMap<>();
        for (int i : pending) {
            byQueue.computeIfAbsent(targets.get(requests.get(i).pipeline()).queueUrl(), url -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> batches = new ArrayList<>();
        byQueue.values().forEach(indices ->
                batches.addAll(Batches.of(indices, MAX_ENTRIES_PER_CALL, MAX_CALL_BYTES, i -> bodyBytes(requests.get(i)))));
        return batches;
    }

    private List<EntryOutcome> send(List<Integer> batch, List<Request> requests) {
        EmitTarget.Sqs target = targets.get(requests.get(batch.get(0)).pipeline());
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int j = 0; j < batch.size(); j++) {
            entries.add(entry("m" + j, requests.get(batch.get(j)), target.fifo()));
        }
        try {
            return SqsBatchOutcomes.of(entries,
                    sqs.sendMessageBatch(SendMessageBatchRequest.builder().queueUrl(target.queueUrl()).entries(entries).build()));
        } catch (SdkException failure) {
            return SqsBatchOutcomes.failedCall(batch.size(), failure);
        }
    }

    static SendMessageBatchRequestEntry entry(String id, Request request, boolean fifo) {
        SendMessageBatchRequestEntry.Builder entry = SendMessageBatchRequestEntry.builder().id(id).messageBody(request.detailJson());
        if (fifo) {
            entry.messageGroupId(messageGroupId(request.pipeline(), request.aggregateId()))
                    .messageDeduplicationId(deduplicationId(request.aggregateId()));
        }
        return entry.build();
    }

    /** SHA-256 hex of the aggregate id: 64 characters from [0-9a-f]. */
    public static String deduplicationId(String aggregateId) {
        return StableHash.sha256Hex(aggregateId);
    }

    /** {@code <pipeline>:<16 hex of SHA-256(key)>}, the key read from the aggregate id (the whole id when it has none). */
    public static String messageGroupId(String pipeline, String aggregateId) {
        String key = AggregateIds.key(aggregateId);
        return pipeline + ":" + StableHash.sha256Hex(key == null ? aggregateId : key).substring(0, 16);
    }

    private static long bodyBytes(Request request) {
        return request.detailJson().getBytes(StandardCharsets.UTF_8).length;
    }
}
