package dev.fanin.aws.eventbridge;

import dev.fanin.aws.Batches;
import dev.fanin.aws.EnvReferences;
import dev.fanin.aws.PartialBatchRetry;
import dev.fanin.aws.PartialBatchRetry.EntryOutcome;
import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.TransientFailures;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.EventBridgeNames;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.config.PipelineConfig;
import dev.fanin.core.config.SinkLimits;
import dev.fanin.core.port.AggregateEmitter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Emits aggregates with {@code PutEvents} to each pipeline's bus ({@link EmitTarget.EventBridge}).
 *
 * <p>Calls hold at most 10 entries and at most {@link #MAX_CALL_BYTES} by EventBridge's entry-size rules (source,
 * detail type and detail in UTF-8; no time or resources are set). A call's {@code FailedEntryCount} is never read
 * as all-or-nothing: each entry's own result decides, and only failed entries are sent again, with bounded
 * attempts and backoff ({@link RetryPolicy}). Entries failing for a reason retrying cannot fix (malformed detail,
 * missing bus, permissions) are not retried. A whole call failing (after the SDK's own retries) fails its entries,
 * retryably when the failure is transient. Nothing is thrown for a failed entry: its {@link Result} says so.
 */
public final class EventBridgeEmitter implements AggregateEmitter {

    public static final int MAX_ENTRIES_PER_CALL = 10;
    /** PutEvents' limit on a call's total entry size (256 KB). */
    public static final long MAX_CALL_BYTES = SinkLimits.EVENTBRIDGE_ENTRY_BYTES;
    static final Set<String> PERMANENT_ERRORS = Set.of("MalformedDetail", "InvalidArgument", "ValidationException",
            "AccessDeniedException", "NotAuthorizedForSourceException", "NotAuthorizedForDetailTypeException",
            "ResourceNotFoundException");

    /** A pipeline's resolved target. */
    record Target(String busName, String source, String detailType) { }

    private final EventBridgeClient events;
    private final Map<String, Target> targets;
    private final RetryPolicy retry;

    /**
     * @param env lookup for {@code ${NAME}} references in the targets (e.g. {@code System::getenv})
     * @throws IllegalStateException naming the pipeline and field when a reference is unset
     */
    public EventBridgeEmitter(EventBridgeClient events, FaninConfig config, Function<String, String> env, RetryPolicy retry) {
        this.events = Objects.requireNonNull(events, "events");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.targets = resolveTargets(config, env);
    }

    public EventBridgeEmitter(EventBridgeClient events, FaninConfig config, Function<String, String> env) {
        this(events, config, env, RetryPolicy.defaults());
    }

    /**
     * Whether {@code config}'s EventBridge targets resolve against {@code env} as a function resolves them at cold start
     * (what {@code fanin config publish} checks against a stack's environment).
     *
     * @throws IllegalStateException naming the field and the reference that is not set, or the value EventBridge would refuse
     */
    public static void checkTargets(FaninConfig config, Function<String, String> env) {
        resolveTargets(config, env);
    }

    private static Map<String, Target> resolveTargets(FaninConfig config, Function<String, String> env) {
        Map<String, Target> resolved = new HashMap<>();
        for (PipelineConfig pipeline : config.pipelines()) {
            if (pipeline.emit() instanceof EmitTarget.EventBridge target) {
                String where = "pipeline '" + pipeline.name() + "' emit.";
                String source = EnvReferences.resolve(target.source(), env, where + "source");
                String detailType = EnvReferences.resolve(target.detailType(), env, where + "detailType");
                // A literal was checked when the configuration loaded; what a reference resolves to is known only now.
                refuse(EventBridgeNames.sourceProblem(source), where + "source", target.source());
                refuse(EventBridgeNames.detailTypeProblem(detailType), where + "detailType", target.detailType());
                resolved.put(pipeline.name(), new Target(EnvReferences.resolve(target.busName(), env, where + "busName"), source, detailType));
            }
        }
        return Map.copyOf(resolved);
    }

    /** @throws IllegalStateException naming the field and what it was written as, when EventBridge would refuse its value */
    private static void refuse(Optional<String> problem, String field, String written) {
        problem.ifPresent(p -> {
            throw new IllegalStateException(field + " (written \"" + written + "\") " + p);
        });
    }

    @Override
    public List<Result> emit(List<Request> requests) {
        List<PutEventsRequestEntry> entries = new ArrayList<>();
        Map<Integer, String> refused = new HashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            Target target = targets.get(request.pipeline());
            if (target == null) {
                refused.put(i, "NoTarget: pipeline '" + request.pipeline() + "' has no EventBridge target");
                entries.add(null);
                continue;
            }
            PutEventsRequestEntry entry = entry(target, request);
            if (entryBytes(entry) > MAX_CALL_BYTES) {
                refused.put(i, "EntryTooLarge: " + entryBytes(entry) + " bytes, PutEvents allows " + MAX_CALL_BYTES);
            }
            entries.add(entry);
        }
        return PartialBatchRetry.run(requests, refused,
                pending -> Batches.of(pending, MAX_ENTRIES_PER_CALL, MAX_CALL_BYTES, i -> entryBytes(entries.get(i))),
                batch -> send(batch, entries), retry);
    }

    static PutEventsRequestEntry entry(Target target, Request request) {
        return PutEventsRequestEntry.builder()
                .eventBusName(target.busName())
                .source(target.source())
                .detailType(target.detailType())
                .detail(request.detailJson())
                .build();
    }

    /** EventBridge's documented entry size: UTF-8 bytes of source, detail type, detail and resources, 14 for a time. */
    static long entryBytes(PutEventsRequestEntry entry) {
        long size = entry.time() == null ? 0 : 14;
        size += utf8(entry.source()) + utf8(entry.detailType()) + utf8(entry.detail());
        if (entry.hasResources()) {
            size += entry.resources().stream().mapToLong(EventBridgeEmitter::utf8).sum();
        }
        return size;
    }

    private List<EntryOutcome> send(List<Integer> batch, List<PutEventsRequestEntry> entries) {
        List<PutEventsRequestEntry> call = batch.stream().map(entries::get).toList();
        PutEventsResponse response;
        try {
            response = events.putEvents(PutEventsRequest.builder().entries(call).build());
        } catch (SdkException failure) {
            EntryOutcome failed = EntryOutcome.failed(TransientFailures.describe(failure), TransientFailures.isTransient(failure));
            return batch.stream().map(i -> failed).toList();
        }
        List<EntryOutcome> outcomes = new ArrayList<>();
        List<PutEventsResultEntry> results = response.entries();
        for (int j = 0; j < batch.size(); j++) {
            PutEventsResultEntry result = j < results.size() ? results.get(j) : null;
            if (result == null) {
                outcomes.add(EntryOutcome.failed("NoResult: PutEvents returned no result for the entry", true));
            } else if (result.errorCode() == null && result.eventId() != null) {
                outcomes.add(EntryOutcome.SENT);
            } else {
                String code = result.errorCode() == null ? "Unknown" : result.errorCode();
                outcomes.add(EntryOutcome.failed(code + ": " + result.errorMessage(), !PERMANENT_ERRORS.contains(code)));
            }
        }
        return outcomes;
    }

    private static long utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
