package com.example.orders;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The service's code under test: a user's orders in a table keyed PK = USER#name,
 * SK = ORDER#id (the shape of the preloaded ecommerce model).
 */
public final class OrderRepository {
    private final DynamoDbClient dynamo;
    private final String table;

    public OrderRepository(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    public void place(String user, String orderId, String status) {
        dynamo.putItem(b -> b.tableName(table).item(Map.of(
                "PK", s("USER#" + user),
                "SK", s("ORDER#" + orderId),
                "OrderId", s(orderId),
                "Status", s(status))));
    }

    public String status(String user, String orderId) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                .key(Map.of("PK", s("USER#" + user), "SK", s("ORDER#" + orderId)))
                .consistentRead(true)).item();
        return item.isEmpty() ? null : item.get("Status").s();
    }

    /** The user's order ids, in sort-key order. */
    public List<String> orderIds(String user) {
        return dynamo.query(b -> b.tableName(table)
                        .keyConditionExpression("PK = :u AND begins_with(SK, :o)")
                        .expressionAttributeValues(Map.of(":u", s("USER#" + user), ":o", s("ORDER#")))
                        .consistentRead(true))
                .items().stream().map(i -> i.get("OrderId").s()).collect(Collectors.toList());
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
