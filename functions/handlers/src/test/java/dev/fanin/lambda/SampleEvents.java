package dev.fanin.lambda;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The repository's {@code events/} files (the ones {@code sam local invoke -e} uses), loaded by
 * {@code aws-lambda-java-tests} with Lambda's own event serializers.
 */
final class SampleEvents {

    static final Path DIRECTORY = Path.of("../../events");

    private SampleEvents() {
    }

    static SQSEvent sqs(String file) {
        return EventLoader.loadSQSEvent(DIRECTORY.resolve(file).toString());
    }

    static ScheduledEvent scheduled(String file) {
        return EventLoader.loadScheduledEvent(DIRECTORY.resolve(file).toString());
    }

    /** The latest {@code SentTimestamp} of the batch: the functions run just after it, as they would in AWS. */
    static Instant lastSent(SQSEvent event) {
        return event.getRecords().stream()
                .map(m -> Instant.ofEpochMilli(Long.parseLong(m.getAttributes().get("SentTimestamp"))))
                .max(Instant::compareTo)
                .orElseThrow();
    }

    /** The records of a sample event at these indexes, as one batch. */
    static SQSEvent records(SQSEvent sample, int... indexes) {
        SQSEvent event = new SQSEvent();
        event.setRecords(java.util.Arrays.stream(indexes).mapToObj(i -> sample.getRecords().get(i)).toList());
        return event;
    }
}
