package dev.fanin.bench;

import java.util.Map;

/**
 * On-demand prices the report uses (us-east-1, USD, as published by AWS for on-demand DynamoDB since the November
 * 2024 reduction, Lambda on arm64 as the template deploys it, SQS standard, EventBridge custom events); free tiers
 * ignored. Pass another table to price another region.
 *
 * @param perMillionWriteUnits    DynamoDB on-demand write request units
 * @param perMillionReadUnits     DynamoDB on-demand read request units
 * @param perGbSecond             Lambda duration (arm64: template.yaml Architectures)
 * @param perMillionInvocations   Lambda requests
 * @param perMillionSqsRequests   SQS standard queue requests (64 KB chunks)
 * @param perMillionEvents        EventBridge custom events put (64 KB chunks)
 * @param lambdaMemoryGb          function memory (template.yaml FunctionMemorySize default, 1024 MB)
 * @param waits                   how long a function waits on each call it makes, billed as duration
 */
public record PriceTable(double perMillionWriteUnits, double perMillionReadUnits, double perGbSecond, double perMillionInvocations,
                         double perMillionSqsRequests, double perMillionEvents, double lambdaMemoryGb, CallMillis waits) {

    /**
     * The assumed wait inside Lambda per call, by kind, in milliseconds: in-region round trips at the medians AWS
     * and public measurements put them (DynamoDB single-item calls in single-digit milliseconds; a transaction or a
     * batch about twice that), plus the transfer and unmarshalling of what a read returns, per 4 KB read unit (about
     * 75 ms per MB at 1 GB of memory, so a 1 MB Query page waits about 80 ms). Every figure is a count times one of
     * these, so another assumption is a new table, not a new run.
     *
     * @param singleItem   GetItem, PutItem, UpdateItem, DeleteItem
     * @param multiItem    TransactWriteItems, BatchWriteItem, BatchGetItem
     * @param queryPage    each page of a Query or Scan, before its transfer
     * @param perReadUnit  transfer and unmarshalling per read unit returned (4 KB strongly consistent)
     * @param putEvents    an EventBridge PutEvents call
     * @param sqsSend      an SQS SendMessage or SendMessageBatch call
     */
    public record CallMillis(double singleItem, double multiItem, double queryPage, double perReadUnit, double putEvents,
                             double sqsSend) {

        /** The wait of a set of calls: each DynamoDB call by its kind, each read unit returned, each PutEvents and SQS send. */
        double of(Map<String, Long> dynamoDbCalls, double readUnits, long putEvents, long sqsSends) {
            double calls = dynamoDbCalls.entrySet().stream().mapToDouble(e -> e.getValue() * dynamoDb(e.getKey())).sum();
            return calls + readUnits * perReadUnit + putEvents * this.putEvents + sqsSends * sqsSend;
        }

        /** The wait of one DynamoDB call by its operation name. */
        double dynamoDb(String operation) {
            return switch (operation) {
                case "Query", "Scan" -> queryPage;
                case "TransactWriteItems", "BatchWriteItem", "BatchGetItem", "TransactGetItems" -> multiItem;
                default -> singleItem;
            };
        }
    }

    public static PriceTable usEast1() {
        return new PriceTable(0.625, 0.125, 0.0000133334, 0.20, 0.40, 1.00, 1.0, new CallMillis(4, 8, 5, 0.3, 12, 8));
    }

    String describe() {
        return String.format("DynamoDB on-demand $%.3f/M write units, $%.3f/M read units; Lambda $%.10f/GB-s at %.0f MB and "
                        + "$%.2f/M invocations (duration = measured CPU + the calls' waits: %.0f ms per single-item DynamoDB call, %.0f ms "
                        + "per transaction or batch, %.0f ms per Query or Scan page plus %.1f ms per read unit returned, %.0f ms per "
                        + "EventBridge PutEvents, %.0f ms per SQS send); SQS $%.2f/M requests; EventBridge $%.2f/M events "
                        + "(us-east-1, on-demand, free tiers ignored)",
                perMillionWriteUnits, perMillionReadUnits, perGbSecond, lambdaMemoryGb * 1024, perMillionInvocations, waits.singleItem(),
                waits.multiItem(), waits.queryPage(), waits.perReadUnit(), waits.putEvents(), waits.sqsSend(), perMillionSqsRequests,
                perMillionEvents);
    }
}
