package dev.fanin.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fanin.aws.support.TestConfigs;
import dev.fanin.core.config.EmitTarget;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.port.AggregateEmitter;
import dev.fanin.core.port.AggregateEmitter.Request;
import dev.fanin.core.port.AggregateEmitter.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingEmitterTest {

    private static final FaninConfig CONFIG = TestConfigs.config(
            TestConfigs.pipeline("alerts", new EmitTarget.EventBridge("bus", "fanin", "Aggregate")),
            TestConfigs.pipeline("uploads", new EmitTarget.Sqs("https://queue", true)));

    /** An emitter that sends everything and remembers what it was given. */
    private static final class Sink implements AggregateEmitter {
        final String name;
        final List<String> seen = new ArrayList<>();

        Sink(String name) {
            this.name = name;
        }

        @Override
        public List<Result> emit(List<Request> requests) {
            requests.forEach(r -> seen.add(r.aggregateId()));
            return requests.stream().map(r -> new Result(r.aggregateId(), true, name)).toList();
        }
    }

    @Test
    void routesByTargetTypeAndKeepsRequestOrder() {
        Sink eventBridge = new Sink("eb");
        Sink sqs = new Sink("sqs");
        List<Result> results = new RoutingEmitter(CONFIG, eventBridge, sqs).emit(List.of(
                new Request("1", "uploads", "{}"), new Request("2", "alerts", "{}"),
                new Request("3", "ghost", "{}"), new Request("4", "uploads", "{}")));
        assertThat(results).extracting(Result::aggregateId).containsExactly("1", "2", "3", "4");
        assertThat(results).extracting(Result::error).containsExactly("sqs", "eb", "NoTarget: pipeline 'ghost' has no emit target here (not configured, or its recorded target cannot be built: see the ERROR line)", "sqs");
        assertThat(results.get(2).sent()).isFalse();
        assertThat(eventBridge.seen).containsExactly("2");
        assertThat(sqs.seen).containsExactly("1", "4");
    }

    /**
     * One target's call failing as a whole (the SDK's retries spent) marked the other's sent aggregates failed too, so
     * they stayed claimed and were emitted again when their lease ended (a review of the flush).
     */
    @Test
    void aTargetWhoseCallThrowsFailsOnlyItsOwnRequests() {
        Sink eventBridge = new Sink("eb");
        AggregateEmitter sqsDown = requests -> {
            throw new IllegalStateException("sqs unavailable");
        };
        List<Result> results = new RoutingEmitter(CONFIG, eventBridge, sqsDown).emit(List.of(
                new Request("1", "uploads", "{}"), new Request("2", "alerts", "{}")));

        assertThat(results).extracting(Result::aggregateId).containsExactly("1", "2");
        assertThat(results).extracting(Result::sent).containsExactly(false, true);
        assertThat(results.get(0).error()).isEqualTo("sqs unavailable");
        assertThat(eventBridge.seen).containsExactly("2");
    }

    @Test
    void aMissingEmitterForAConfiguredTargetFailsAtConstruction() {
        assertThatThrownBy(() -> new RoutingEmitter(CONFIG, new Sink("eb"), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("pipeline 'uploads'");
    }
}
