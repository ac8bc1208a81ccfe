package localdynamo.sdk;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Scenario tables: `<scenario>_java`, keyed by `pk` (S) and, when asked, `sk` (S). */
public final class Tables {
    private Tables() {
    }

    public static String name(String scenario) {
        return scenario + "_java";
    }

    /** A request for an on-demand table keyed by pk [and sk], for a scenario to add to. */
    public static CreateTableRequest.Builder keyed(String table, boolean withSortKey) {
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST);
        if (withSortKey) {
            request.keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                    .attributeDefinitions(string("pk"), string("sk"));
        } else {
            request.keySchema(key("pk", KeyType.HASH)).attributeDefinitions(string("pk"));
        }
        return request;
    }

    /** Creates the table afresh (a rerun in the same server finds the old one gone) and waits. */
    public static void create(DynamoDbClient client, CreateTableRequest request) {
        dropIfPresent(client, request.tableName());
        client.createTable(request);
        client.waiter().waitUntilTableExists(r -> r.tableName(request.tableName()));
    }

    public static void dropIfPresent(DynamoDbClient client, String table) {
        try {
            client.deleteTable(r -> r.tableName(table));
            client.waiter().waitUntilTableNotExists(r -> r.tableName(table));
        } catch (ResourceNotFoundException absent) {
            // nothing to drop
        }
    }

    static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    static AttributeDefinition string(String name) {
        return AttributeDefinition.builder().attributeName(name)
                .attributeType(ScalarAttributeType.S).build();
    }
}
