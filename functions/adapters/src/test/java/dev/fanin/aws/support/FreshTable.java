package dev.fanin.aws.support;

import dev.fanin.aws.dynamodb.WindowTableSchema;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A DynamoDB client on the shared local endpoint for a test class, and a new table of the stack's schema for each test
 * (so tests never see each other's items): {@code @RegisterExtension static final FreshTable TABLE = new
 * FreshTable("windows");}, then {@code TABLE.client()} and {@code TABLE.name()}. The table is created before the
 * class's own {@code @BeforeEach} methods run.
 */
public final class FreshTable implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {

    private final String prefix;
    private DynamoDbClient client;
    private String name;

    /** @param prefix the start of each table's name (a random suffix follows) */
    public FreshTable(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        client = MotoServer.get().dynamoDb();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client.close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        name = prefix + "-" + UUID.randomUUID();
        client.createTable(WindowTableSchema.createTableRequest(name));
    }

    public DynamoDbClient client() {
        return client;
    }

    /** The table of the running test. */
    public String name() {
        return name;
    }
}
