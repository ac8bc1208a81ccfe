package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * What AliceOrdersTest and BobOrdersTest both do: create the same table, write the same keys at the
 * same time, and each read back only its own ({@code @LocalDynamo} on each gives it a database).
 */
abstract class SameKeysOrdersTest {
    private final String who;

    DynamoDbClient dynamo;   // injected
    OrderRepository orders;

    SameKeysOrdersTest(String who) {
        this.who = who;
    }

    @BeforeAll
    static void seed(DynamoDbClient dynamo) {
        dynamo.createTable(b -> b.tableName("orders")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("PK").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("SK").attributeType(ScalarAttributeType.S).build())
                .keySchema(
                        KeySchemaElement.builder().attributeName("PK").keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName("SK").keyType(KeyType.RANGE).build()));
        new OrderRepository(dynamo, "orders").place("shared-user", "0001", "seeded");
    }

    private OrderRepository orders() {
        if (orders == null) {
            orders = new OrderRepository(dynamo, "orders");
        }
        return orders;
    }

    @Test
    void writes_the_same_keys_as_the_other_class_and_reads_back_its_own() throws Exception {
        assertEquals(List.of("orders"), dynamo.listTables().tableNames());
        orders().place("shared-user", "0001", who + "-overwritten");
        orders().place("shared-user", "0002", who + "-placed");

        SameKeysInParallel.awaitTheOtherClass();

        assertEquals(who + "-overwritten", orders().status("shared-user", "0001"));
        assertEquals(who + "-placed", orders().status("shared-user", "0002"));
        assertEquals(List.of("0001", "0002"), orders().orderIds("shared-user"));
    }

    @Test
    void every_test_starts_from_the_seed() {
        // Whichever test ran first, its writes were undone before this one.
        assertEquals("seeded", orders().status("shared-user", "0001"));
        assertNull(orders().status("shared-user", "0002"));
        orders().place("shared-user", "0003", who + "-placed");
        assertEquals(List.of("0001", "0003"), orders().orderIds("shared-user"));
    }
}
