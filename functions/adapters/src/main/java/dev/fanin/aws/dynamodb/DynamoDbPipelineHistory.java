package dev.fanin.aws.dynamodb;

import static dev.fanin.aws.dynamodb.WindowItemCodec.PK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.SK;
import static dev.fanin.aws.dynamodb.WindowItemCodec.TTL;
import static dev.fanin.aws.dynamodb.WindowItemCodec.n;
import static dev.fanin.aws.dynamodb.WindowItemCodec.s;

import dev.fanin.core.port.PipelineHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link PipelineHistory} on the window table: one item per pipeline in one partition, {@code pk=P#pipelines},
 * {@code sk=<pipeline>}, holding {@code doc} (the configuration document), {@code until} (N, epoch ms) and a TTL a day
 * after it; and in another partition, {@code pk=P#ran}, {@code sk=<pipeline>}, {@code ran} (N, epoch ms: when a
 * function running it last said so, {@link #ran}) and a TTL a day after that (apart, so a reader of the definitions of
 * an earlier version, which expects a document in every item of theirs, never meets one). A record is one conditional
 * {@code PutItem} ({@code until} may only grow); when a later {@code until} is stored, one {@code UpdateItem} replaces
 * the document alone. A {@code ran} is one unconditional {@code PutItem} of the small item (1 write unit, whatever the
 * document's size). Reading is one {@code Query} of each partition (an item per pipeline ever recorded and not
 * expired: a handful).
 */
public final class DynamoDbPipelineHistory implements PipelineHistory {

    static final String PARTITION = "P#pipelines";
    static final String DOC = "doc";
    static final String UNTIL = "until";
    static final String RAN = "ran";
    static final String RAN_PARTITION = "P#ran";
    /** Where the version before {@link #RAN_PARTITION} wrote a pipeline's ran item: {@code P#pipelines}, {@code <pipeline>#ran}. */
    static final String LEGACY_RAN_SUFFIX = "#ran";
    static final String ONLY_LATER = "attribute_not_exists(#until) OR #until <= :until";
    private static final Duration TTL_MARGIN = Duration.ofDays(1);

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbPipelineHistory(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public void record(List<Definition> definitions) {
        for (Definition d : definitions) {
            try {
                try {
                    dynamo.putItem(putRequest(d));
                } catch (ConditionalCheckFailedException laterStored) {
                    dynamo.updateItem(UpdateItemRequest.builder().tableName(table).key(key(d.pipeline()))
                            .updateExpression("SET #doc = :doc").expressionAttributeNames(Map.of("#doc", DOC))
                            .expressionAttributeValues(Map.of(":doc", s(d.document()))).build());
                }
            } catch (SdkException e) {
                throw DynamoDbFailures.translate("pipeline history record", e);
            }
        }
    }

    PutItemRequest putRequest(Definition d) {
        return PutItemRequest.builder().tableName(table)
                .item(Map.of(PK, s(PARTITION), SK, s(d.pipeline()), DOC, s(d.document()),
                        UNTIL, n(d.sweepUntil().toEpochMilli()), TTL, n(d.sweepUntil().plus(TTL_MARGIN).getEpochSecond())))
                .conditionExpression(ONLY_LATER)
                .expressionAttributeNames(Map.of("#until", UNTIL))
                .expressionAttributeValues(Map.of(":until", n(d.sweepUntil().toEpochMilli())))
                .build();
    }

    @Override
    public void ran(List<String> pipelines, Instant at) {
        for (String pipeline : pipelines) {
            try {
                dynamo.putItem(PutItemRequest.builder().tableName(table).item(Map.of(PK, s(RAN_PARTITION), SK, s(pipeline),
                        RAN, n(at.toEpochMilli()), TTL, n(at.plus(TTL_MARGIN).getEpochSecond()))).build());
            } catch (SdkException e) {
                throw DynamoDbFailures.translate("pipeline history ran", e);
            }
        }
    }

    @Override
    public List<Definition> recorded() {
        Map<String, Instant> ran = new HashMap<>();
        for (Map<String, AttributeValue> item : QueryPages.all(dynamo, partition(RAN_PARTITION), "pipeline history read")) {
            ran.put(item.get(SK).s(), millis(item));
        }
        List<Definition> found = new ArrayList<>();
        List<Map<String, AttributeValue>> definitions = new ArrayList<>();
        for (Map<String, AttributeValue> item : QueryPages.all(dynamo, partition(PARTITION), "pipeline history read")) {
            String sk = item.get(SK).s();
            if (item.containsKey(DOC) && item.containsKey(UNTIL)) {
                definitions.add(item);
            } else if (sk.endsWith(LEGACY_RAN_SUFFIX)) {
                // A ran item in this partition: written there, a day's TTL, by the version before P#ran.
                ran.merge(sk.substring(0, sk.length() - LEGACY_RAN_SUFFIX.length()), millis(item), DynamoDbPipelineHistory::later);
            }
        }
        for (Map<String, AttributeValue> item : definitions) {
            String pipeline = item.get(SK).s();
            // A `ran` on the definition itself: written there by the version before the ran items.
            Instant ranAt = later(ran.getOrDefault(pipeline, Instant.EPOCH), millis(item));
            found.add(new Definition(pipeline, item.get(DOC).s(), Instant.ofEpochMilli(Long.parseLong(item.get(UNTIL).n())), ranAt));
        }
        return found;
    }

    private QueryRequest partition(String pk) {
        return QueryRequest.builder().tableName(table).keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", PK)).expressionAttributeValues(Map.of(":pk", s(pk)))
                .consistentRead(true).build();
    }

    private static Instant millis(Map<String, AttributeValue> item) {
        return item.containsKey(RAN) ? Instant.ofEpochMilli(Long.parseLong(item.get(RAN).n())) : Instant.EPOCH;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Map<String, AttributeValue> key(String pipeline) {
        return Map.of(PK, s(PARTITION), SK, s(pipeline));
    }
}
