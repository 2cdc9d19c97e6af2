package dev.fanin.aws.eventbridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.RetryPolicy;
import dev.fanin.aws.support.MotoServer;
import dev.fanin.aws.support.TestConfigs;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.port.AggregateEmitter.Request;
import dev.fanin.core.port.AggregateEmitter.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;
import software.amazon.awssdk.services.eventbridge.model.Target;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class EventBridgeEmitterTest {

    private final List<Integer> callSizes = Collections.synchronizedList(new ArrayList<>());
    private final List<Duration> sleeps = new ArrayList<>();
    private String bus;

    @BeforeEach
    void freshBus() {
        bus = "fanin-" + UUID.randomUUID();
        try (EventBridgeClient events = MotoServer.get().eventBridge()) {
            events.createEventBus(b -> b.name(bus));
        }
    }

    @Test
    void deliversToThePipelinesBusAndReportsEachEntrysOwnFailureInOrder() throws Exception {
        SqsClient sqs = MotoServer.get().sqs();
        String queueUrl = sqs.createQueue(b -> b.queueName("aggregates-" + UUID.randomUUID())).queueUrl();
        String queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        try (EventBridgeClient events = MotoServer.get().eventBridge(new Recorder(Set.of(), 0))) {
            events.putRule(b -> b.name("to-queue").eventBusName(bus).eventPattern("{\"source\":[\"fanin.test\"]}"));
            events.putTargets(b -> b.rule("to-queue").eventBusName(bus).targets(Target.builder().id("q").arn(queueArn).build()));

            List<Request> requests = IntStream.range(0, 12)
                    .mapToObj(i -> new Request("agg-" + i, "alerts", i == 5 ? "not json" : "{\"n\":" + i + "}"))
                    .toList();
            List<Result> results = emitter(events).emit(requests);

            assertThat(results).extracting(Result::aggregateId).containsExactlyElementsOf(requests.stream().map(Request::aggregateId).toList());
            assertThat(results.get(5).sent()).isFalse();
            assertThat(results.get(5).error()).startsWith("MalformedDetail");
            assertThat(results).filteredOn(Result::sent).hasSize(11);
            assertThat(callSizes).as("10 + 2 entries; the malformed one is not retried").containsExactly(10, 2);

            int received = 0;
            Instant deadline = Instant.now().plusSeconds(20);
            while (received < 11 && Instant.now().isBefore(deadline)) {
                received += sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages().size();
            }
            assertThat(received).isEqualTo(11);
        } finally {
            sqs.close();
        }
    }

    @Test
    void resendsOnlyTheEntriesThatFailedAfterABackoff() {
        try (EventBridgeClient events = MotoServer.get().eventBridge(new Recorder(Set.of(1), 1))) {
            List<Request> requests = List.of(new Request("a", "alerts", "{}"), new Request("b", "alerts", "{}"), new Request("c", "alerts", "{}"));
            List<Result> results = emitter(events).emit(requests);
            assertThat(results).allMatch(Result::sent);
            assertThat(callSizes).containsExactly(3, 1);
            assertThat(sleeps).containsExactly(Duration.ofMillis(100));
        }
    }

    @Test
    void givesUpAfterTheBoundedNumberOfAttempts() {
        try (EventBridgeClient events = MotoServer.get().eventBridge(new Recorder(Set.of(0), Integer.MAX_VALUE))) {
            List<Result> results = emitter(events).emit(List.of(new Request("a", "alerts", "{}"), new Request("b", "alerts", "{}")));
            assertThat(results.get(0).sent()).isFalse();
            assertThat(results.get(0).error()).startsWith("ThrottlingException");
            assertThat(results.get(1).sent()).isTrue();
            assertThat(callSizes).containsExactly(2, 1, 1);
            assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
        }
    }

    @Test
    void splitsCallsAtTheSizeLimitAndRefusesAnOversizeEntryWithoutSendingIt() {
        String big = "{\"pad\":\"" + "x".repeat(100 * 1024) + "\"}";
        String huge = "{\"pad\":\"" + "x".repeat(300 * 1024) + "\"}";
        try (EventBridgeClient events = MotoServer.get().eventBridge(new Recorder(Set.of(), 0))) {
            List<Result> results = emitter(events).emit(List.of(new Request("a", "alerts", big), new Request("b", "alerts", big),
                    new Request("c", "alerts", huge), new Request("d", "alerts", big)));
            assertThat(results).extracting(Result::sent).containsExactly(true, true, false, true);
            assertThat(results.get(2).error()).startsWith("EntryTooLarge");
            assertThat(callSizes).containsExactly(2, 1);
        }
    }

    @Test
    void anUnknownPipelineGetsAFailedResultNotAnException() {
        try (EventBridgeClient events = MotoServer.get().eventBridge(new Recorder(Set.of(), 0))) {
            List<Result> results = emitter(events).emit(List.of(new Request("a", "nope", "{}")));
            assertThat(results.get(0).sent()).isFalse();
            assertThat(results.get(0).error()).startsWith("NoTarget");
            assertThat(callSizes).isEmpty();
        }
    }

    @Test
    void resolvesEnvironmentReferencesAtConstructionAndFailsClearlyWhenUnset() {
        FaninConfig config = TestConfigs.config(TestConfigs.pipeline("alerts", new EmitTarget.EventBridge("${FANIN_BUS}", "fanin.test", "Aggregate")));
        try (EventBridgeClient events = MotoServer.get().eventBridge()) {
            EventBridgeEmitter resolved = new EventBridgeEmitter(events, config, Map.of("FANIN_BUS", bus)::get);
            assertThat(resolved.emit(List.of(new Request("a", "alerts", "{}"))).get(0).sent()).isTrue();
            assertThatThrownBy(() -> new EventBridgeEmitter(events, config, name -> null))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pipeline 'alerts' emit.busName")
                    .hasMessageContaining("FANIN_BUS");
        }
    }

    /** What a reference resolves to is checked at start-up, as a literal is when the configuration loads. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} = {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "source     | aws.team   | emit.source (written \"${VALUE}\") \"aws.team\" starts with \"aws.\"",
            "source     | LONG257    | emit.source (written \"${VALUE}\") is 257 characters long; EventBridge takes at most 256",
            "detailType | LONG129    | emit.detailType (written \"${VALUE}\") is 129 characters long; EventBridge takes at most 128",
    })
    void refusesAtConstructionAReferenceResolvingToANameEventBridgeRefuses(String field, String value, String message) {
        String resolvedTo = value.startsWith("LONG") ? "x".repeat(Integer.parseInt(value.substring(4))) : value;
        EmitTarget target = field.equals("source") ? new EmitTarget.EventBridge(bus, "${VALUE}", "Aggregate")
                : new EmitTarget.EventBridge(bus, "fanin.test", "${VALUE}");
        FaninConfig config = TestConfigs.config(TestConfigs.pipeline("alerts", target));
        try (EventBridgeClient events = MotoServer.get().eventBridge()) {
            assertThatThrownBy(() -> new EventBridgeEmitter(events, config, Map.of("VALUE", resolvedTo)::get))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("pipeline 'alerts' " + message);
        }
    }

    private EventBridgeEmitter emitter(EventBridgeClient events) {
        FaninConfig config = TestConfigs.config(TestConfigs.pipeline("alerts", new EmitTarget.EventBridge(bus, "fanin.test", "Aggregate")));
        return new EventBridgeEmitter(events, config, name -> null, new RetryPolicy(3, Duration.ofMillis(100), sleeps::add));
    }

    /**
     * Records each PutEvents call's entry count and, for its first {@code failingCalls} calls, rewrites the
     * response so that the entries at {@code failIndexes} report {@code ThrottlingException}, as EventBridge does
     * under partial throttling.
     */
    private final class Recorder implements ExecutionInterceptor {
        private final Set<Integer> failIndexes;
        private int failingCalls;

        Recorder(Set<Integer> failIndexes, int failingCalls) {
            this.failIndexes = failIndexes;
            this.failingCalls = failingCalls;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutEventsRequest request) {
                callSizes.add(request.entries().size());
            }
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (!(context.response() instanceof PutEventsResponse response) || failingCalls <= 0) {
                return context.response();
            }
            failingCalls--;
            List<PutEventsResultEntry> entries = new ArrayList<>(response.entries());
            int failed = 0;
            for (int i : failIndexes) {
                if (i < entries.size()) {
                    entries.set(i, PutEventsResultEntry.builder().errorCode("ThrottlingException").errorMessage("Rate exceeded").build());
                    failed++;
                }
            }
            return response.toBuilder().entries(entries).failedEntryCount(failed).build();
        }
    }
}
