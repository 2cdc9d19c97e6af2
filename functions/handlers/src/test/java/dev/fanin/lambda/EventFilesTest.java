package dev.fanin.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in {@code events/} deserialises into the event type of the function it is for, with the serializers
 * the Lambda Java runtime itself uses, and carries what the handlers read.
 */
class EventFilesTest {

    static Stream<Path> eventFiles() throws IOException {
        try (Stream<Path> files = Files.list(SampleEvents.DIRECTORY)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("eventFiles")
    void deserialisesAsTheRuntimeDoes(Path file) throws IOException {
        ClassLoader loader = getClass().getClassLoader();
        String name = file.getFileName().toString();
        try (InputStream in = Files.newInputStream(file)) {
            if (name.startsWith("sqs-")) {
                SQSEvent event = LambdaEventSerializers.serializerFor(SQSEvent.class, loader).fromJson(in);
                assertThat(event.getRecords()).isNotEmpty().allSatisfy(m -> {
                    assertThat(m.getMessageId()).isNotBlank();
                    assertThat(m.getBody()).isNotNull();
                    assertThat(m.getAttributes()).containsKeys("SentTimestamp", "ApproximateReceiveCount");
                    assertThat(m.getEventSource()).isEqualTo("aws:sqs");
                });
            } else if (name.startsWith("scheduled-")) {
                ScheduledEvent event = LambdaEventSerializers.serializerFor(ScheduledEvent.class, loader).fromJson(in);
                assertThat(event.getDetailType()).isEqualTo("Scheduled Event");
                if (SweeperFunction.everyShard(event)) {
                    // The hourly schedule's constant Input, which EventBridge delivers as it is (template.yaml).
                    assertThat(event.getSource()).isEqualTo("fanin.sweeper");
                } else {
                    assertThat(event.getSource()).isEqualTo("aws.events");
                    assertThat(event.getTime()).isNotNull();
                }
            } else {
                throw new AssertionError(name + ": name it sqs-*.json (ingest, timer) or scheduled-*.json (sweeper) so its function is known");
            }
        }
    }
}
