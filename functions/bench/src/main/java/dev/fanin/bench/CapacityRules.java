package dev.fanin.bench;

import dev.fanin.aws.dynamodb.DynamoDbItemSize;

/**
 * DynamoDB's documented capacity rules, as the benchmark charges them (on-demand request units are billed by the
 * same rules as provisioned capacity units):
 * <ul>
 *   <li>a standard write: 1 unit per started KB of the larger of the item before and after, at least 1
 *       ({@link DynamoDbItemSize#writeUnits}); a write refused by its condition is charged the same;</li>
 *   <li>a transactional write: twice that, per item in the transaction;</li>
 *   <li>a delete (a due bucket's, in a BatchWriteItem): 1 unit per started KB of the item deleted, at least 1;</li>
 *   <li>a strongly consistent read (GetItem, Query): 1 unit per started 4 KB of the items returned, summed over
 *       the items of a Query, at least 1; an eventually consistent read half that.</li>
 * </ul>
 */
public final class CapacityRules {

    static final int READ_BLOCK = 4 * 1024;

    private CapacityRules() { }

    public static double writeUnits(long oldBytes, long newBytes) {
        return DynamoDbItemSize.writeUnits(oldBytes, newBytes);
    }

    public static double transactionalWriteUnits(long oldBytes, long newBytes) {
        return 2 * writeUnits(oldBytes, newBytes);
    }

    public static double strongReadUnits(long returnedBytes) {
        return Math.max(1, (returnedBytes + READ_BLOCK - 1) / READ_BLOCK);
    }

    public static double eventualReadUnits(long returnedBytes) {
        return strongReadUnits(returnedBytes) / 2;
    }
}
