package dev.fanin.sim;

import dev.fanin.aws.sqs.SqsDeliveries;
import dev.fanin.testkit.AggregateSchema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fanin.core.config.ConfigLoader;
import dev.fanin.core.config.FaninConfig;
import dev.fanin.core.intake.InboundMessage;
import dev.fanin.core.intake.IntakeResult;
import dev.fanin.core.intake.MessageIntake;
import dev.fanin.core.intake.Rejected;
import dev.fanin.core.memory.InMemoryWatermarkStore;
import dev.fanin.core.memory.InMemoryWindowStore;
import dev.fanin.core.memory.RecordingEmitter;
import dev.fanin.core.memory.RecordingSideOutput;
import dev.fanin.core.memory.RecordingTimers;
import dev.fanin.core.port.Metrics;
import dev.fanin.core.service.BatchResult;
import dev.fanin.core.service.FaninEngine;
import dev.fanin.core.service.FaninPorts;
import dev.fanin.core.service.FaninSettings;
import dev.fanin.core.service.IngestService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes {@link MessageIntake#parse} with random and mutated bodies (mutations of a valid message of every envelope
 * and of the hostile corpus): it never throws, every message lands in at least one of accepted, rejected and ignored,
 * and every rejection has a reason and a detail, with INTERNAL_ERROR (a fanin bug) never among them. The same bodies
 * through {@link IngestService} never fail a batch.
 */
class IntakeFuzzProperties {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final FaninConfig CONFIG = ConfigLoader.loadBundled();
    private static final MessageIntake INTAKE = new MessageIntake(CONFIG);

    static List<String> seeds() {
        List<String> seeds = new ArrayList<>();
        seeds.add(HostileInputTest.shard("shard", "3"));
        seeds.add(HostileInputTest.alertDetail("{\"service\":\"api\",\"resource\":\"i-1\"}"));
        seeds.add(HostileInputTest.sns("\"{\\\"source\\\":\\\"custom.alerts\\\",\\\"alertId\\\":\\\"a1\\\",\\\"account\\\":\\\"1\\\","
                + "\\\"region\\\":\\\"r\\\",\\\"service\\\":\\\"s\\\",\\\"time\\\":\\\"2026-11-29T09:59:00Z\\\"}\""));
        seeds.add(HostileInputTest.s3(HostileInputTest.s3Record("\"up/b1/part-1.csv\"") + "," + HostileInputTest.s3Record("\"up/b1/_manifest-2.json\"")));
        for (HostileInputTest.Case c : HostileInputTest.corpus()) {
            if (c.body().length() < 5_000) {
                seeds.add(c.body());
            }
        }
        return seeds;
    }

    @Provide
    Arbitrary<String> mutatedBodies() {
        return Mutations.of(Arbitraries.of(seeds()), Mutations.nasty());
    }

    @Provide
    Arbitrary<String> randomBodies() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(200),
                Arbitraries.strings().withChars("{}[]\":,0123456789.eE-+truefalsn \\u").ofMaxLength(200));
    }

    @Property(tries = 400)
    void mutatedBodiesAreAlwaysAccountedForAndNeverCrashIntake(@ForAll("mutatedBodies") String body) {
        checkAccounted(body);
    }

    @Property(tries = 300)
    void randomBodiesAreAlwaysAccountedForAndNeverCrashIntake(@ForAll("randomBodies") String body) {
        checkAccounted(body);
    }

    @Property(tries = 100)
    void mutatedBatchesNeverFailInIngest(@ForAll("mutatedBodies") String a, @ForAll("mutatedBodies") String b,
                                         @ForAll("mutatedBodies") String c) {
        RecordingSideOutput side = new RecordingSideOutput();
        IngestService ingest = new IngestService(new FaninEngine(CONFIG, new FaninPorts(new InMemoryWindowStore(4), new InMemoryWatermarkStore(),
                new RecordingEmitter(AggregateSchema::assertValid), new RecordingTimers(), side, side, Metrics.NONE), FaninSettings.defaults(), new SimClock(NOW).skewed(0)));
        List<InboundMessage> batch = List.of(message("m1", a), message("m2", b), message("m3", c));

        BatchResult r = ingest.handle(batch);

        assertThat(r.failedMessageIds()).isEmpty();
        assertThat(r.deadLettered()).isEqualTo(side.deadLetters().size());
        side.deadLetters().forEach(d -> assertThat(d.reason()).isNotBlank().doesNotStartWith("INTERNAL_ERROR"));
    }

    private static InboundMessage message(String id, String body) {
        return SqsDeliveries.inbound(id, body, Map.of("SentTimestamp", Long.toString(NOW.toEpochMilli()), "ApproximateReceiveCount", "1"), NOW);
    }

    private static void checkAccounted(String body) {
        IntakeResult r = INTAKE.parse(message("m", body));
        assertThat(r.accepted().size() + r.rejected().size() + r.ignored().size()).as("lands somewhere").isPositive();
        for (Rejected x : r.rejected()) {
            assertThat(x.reason().name()).isNotEqualTo("INTERNAL_ERROR").as(x.detail());
            assertThat(x.detail()).isNotBlank();
        }
    }
}
