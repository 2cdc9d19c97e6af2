package dev.fanin.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sustained messages per second one pipeline's ingest takes, and what binds it, by arithmetic over one run's
 * counts (never a timing). One invocation waits on its calls for {@link FunctionLoad#millisPerInvocation}, priced by
 * the same {@link PriceTable.CallMillis} as the cost; so one concurrent invocation takes
 * {@code messages per invocation / that wait} messages a second. Each limit below is then a ceiling in messages per
 * second, and the lowest binds:
 * <ul>
 *   <li>the event source's {@code MaximumConcurrency} (template {@code IngestMaxConcurrency}) times one invocation's rate;</li>
 *   <li>the account's Lambda concurrency (1,000 by default per region, shared with every function) times the same;</li>
 *   <li>the partition with the most write units per message against DynamoDB's 1,000 write units a second per
 *       partition, and the one with the most read units against 3,000 read units a second (strongly consistent
 *       reads, as billed);</li>
 *   <li>SQS's 120,000 in-flight messages per standard queue: by Little's law a message is in flight for the
 *       batching window plus one invocation, so the queue takes {@code 120,000 / that time} a second.</li>
 * </ul>
 * Left out, all in the figure's favour: Lambda's own time per invocation (start, CPU: tens of microseconds per
 * event), version conflicts between invocations on one key, and DynamoDB's splitting of a hot partition. The run's
 * batches fill as its profile's arrival rate fills them; at higher rates they fill at least as well, so the per
 * invocation figure is a floor for the profile's shape.
 */
final class Throughput {

    /** The limits the ceilings are taken against. */
    record Limits(int maxConcurrency, int accountConcurrency, double partitionWriteUnits, double partitionReadUnits,
                  long sqsInFlight, Duration batchingWindow) {

        static Limits aws(int maxConcurrency, Duration batchingWindow) {
            return new Limits(maxConcurrency, 1_000, 1_000, 3_000, 120_000, batchingWindow);
        }
    }

    /** One limit as messages a second. */
    record Ceiling(String limit, double messagesPerSecond) { }

    /**
     * @param millisPerInvocation  the wait of one ingest invocation on its calls
     * @param messagesPerInvocation messages one invocation takes, on average over the run
     * @param perInvocation        messages a second one concurrent invocation takes
     * @param ceilings             every limit, lowest first
     */
    record Result(double millisPerInvocation, double messagesPerInvocation, double perInvocation, List<Ceiling> ceilings) {

        Ceiling binding() {
            return ceilings.get(0);
        }

        double sustained() {
            return binding().messagesPerSecond();
        }

        /** The concurrency that one invocation's rate needs to take {@code messagesPerSecond}, rounded up. */
        long concurrencyFor(double messagesPerSecond) {
            return (long) Math.ceil(messagesPerSecond / perInvocation);
        }
    }

    private Throughput() { }

    static Result of(FunctionLoad ingest, List<DynamoDbBill.PartitionUnits> partitions, PriceTable.CallMillis waits, Limits limits) {
        double millis = ingest.millisPerInvocation(waits);
        double perInvocation = millis == 0 ? Double.POSITIVE_INFINITY : ingest.messagesPerInvocation() * 1_000 / millis;
        List<Ceiling> ceilings = new ArrayList<>();
        ceilings.add(new Ceiling("IngestMaxConcurrency " + limits.maxConcurrency(), limits.maxConcurrency() * perInvocation));
        ceilings.add(new Ceiling("Lambda account concurrency " + limits.accountConcurrency(), limits.accountConcurrency() * perInvocation));
        double messages = ingest.messages();
        partitions.stream().max(Comparator.comparingDouble(DynamoDbBill.PartitionUnits::writeUnits)).ifPresent(p -> ceilings.add(
                new Ceiling("writes on partition " + p.partition() + " (" + (long) limits.partitionWriteUnits() + " WCU)",
                        ceiling(limits.partitionWriteUnits(), p.writeUnits() / messages))));
        partitions.stream().max(Comparator.comparingDouble(DynamoDbBill.PartitionUnits::readUnits)).ifPresent(p -> ceilings.add(
                new Ceiling("reads on partition " + p.partition() + " (" + (long) limits.partitionReadUnits() + " RCU)",
                        ceiling(limits.partitionReadUnits(), p.readUnits() / messages))));
        double inFlightSeconds = limits.batchingWindow().toMillis() / 1_000.0 + millis / 1_000;
        ceilings.add(new Ceiling("SQS in-flight messages " + limits.sqsInFlight(), ceiling(limits.sqsInFlight(), inFlightSeconds)));
        ceilings.sort(Comparator.comparingDouble(Ceiling::messagesPerSecond));
        return new Result(millis, ingest.messagesPerInvocation(), perInvocation, List.copyOf(ceilings));
    }

    /** {@code limit / perMessage}: how many messages a second a limit of {@code limit} a second takes. */
    private static double ceiling(double limit, double perMessage) {
        return perMessage == 0 ? Double.POSITIVE_INFINITY : limit / perMessage;
    }
}
