package dev.fanin.bench;

/**
 * On-demand prices the report uses (us-east-1, USD, as published by AWS for on-demand DynamoDB since the November
 * 2024 reduction, Lambda x86, SQS standard, EventBridge custom events); free tiers ignored. Pass another table to
 * price another region.
 *
 * @param perMillionWriteUnits    DynamoDB on-demand write request units
 * @param perMillionReadUnits     DynamoDB on-demand read request units
 * @param perGbSecond             Lambda duration (x86)
 * @param perMillionInvocations   Lambda requests
 * @param perMillionSqsRequests   SQS standard queue requests (64 KB chunks)
 * @param perMillionEvents        EventBridge custom events put (64 KB chunks)
 * @param lambdaMemoryGb          function memory (template.yaml FunctionMemorySize default, 1024 MB)
 * @param dynamoDbCallMillis      assumed DynamoDB round trip inside Lambda, billed as duration
 */
public record PriceTable(double perMillionWriteUnits, double perMillionReadUnits, double perGbSecond, double perMillionInvocations,
                         double perMillionSqsRequests, double perMillionEvents, double lambdaMemoryGb, double dynamoDbCallMillis) {

    public static PriceTable usEast1() {
        return new PriceTable(0.625, 0.125, 0.0000166667, 0.20, 0.40, 1.00, 1.0, 5.0);
    }

    String describe() {
        return String.format("DynamoDB on-demand $%.3f/M write units, $%.3f/M read units; Lambda $%.10f/GB-s at %.0f MB and "
                        + "$%.2f/M invocations (duration = measured CPU + %.0f ms per DynamoDB call); SQS $%.2f/M requests; "
                        + "EventBridge $%.2f/M events (us-east-1, on-demand, free tiers ignored)",
                perMillionWriteUnits, perMillionReadUnits, perGbSecond, lambdaMemoryGb * 1024, perMillionInvocations, dynamoDbCallMillis,
                perMillionSqsRequests, perMillionEvents);
    }
}
