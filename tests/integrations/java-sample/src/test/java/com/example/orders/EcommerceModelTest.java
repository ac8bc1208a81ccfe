package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.localdynamo.junit5.LocalDynamo;
import dev.localdynamo.junit5.LocalDynamoDatabase;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The preloaded ecommerce model (docs/models.md) through the enhanced client: the class's
 * database holds the models, @BeforeAll adds a user's orders, and every test starts from that.
 */
@LocalDynamo
class EcommerceModelTest {
    private static final TableSchema<EcommerceOrder> SCHEMA = TableSchema.fromBean(EcommerceOrder.class);

    DynamoDbClient dynamo;
    DynamoDbEnhancedClient enhanced;
    LocalDynamoDatabase database;

    @BeforeAll
    static void seed(DynamoDbEnhancedClient enhanced) {
        DynamoDbTable<EcommerceOrder> table = enhanced.table("ecommerce", SCHEMA);
        table.putItem(EcommerceOrder.of("junior", "1001", "SHIPPED", "2024-01-02"));
        table.putItem(EcommerceOrder.of("junior", "1002", "PLACED", "2024-01-05"));
        table.putItem(EcommerceOrder.of("junior", "1003", "SHIPPED", "2024-01-01"));
    }

    private DynamoDbTable<EcommerceOrder> orders() {
        return enhanced.table("ecommerce", SCHEMA);
    }

    private List<String> orderIdsOf(String user) {
        return orders().query(r -> r.queryConditional(QueryConditional.sortBeginsWith(
                        Key.builder().partitionValue("USER#" + user).sortValue("ORDER#").build()))
                        .consistentRead(true))
                .items().stream().map(EcommerceOrder::getOrderId).collect(Collectors.toList());
    }

    @Test
    void the_model_tables_are_there() {
        List<String> tables = dynamo.listTables().tableNames();
        assertTrue(tables.containsAll(List.of("ecommerce", "tenants", "lambda-layers", "DeploymentTable")),
                tables.toString());
        TableDescription ecommerce = dynamo.describeTable(b -> b.tableName("ecommerce")).table();
        assertEquals(List.of("GSI1", "GSI2"), ecommerce.globalSecondaryIndexes().stream()
                .map(GlobalSecondaryIndexDescription::indexName).sorted().collect(Collectors.toList()));
    }

    @Test
    void a_users_orders_by_sort_key() {
        assertEquals(List.of("1001", "1002", "1003"), orderIdsOf("junior"));
    }

    @Test
    void a_users_shipped_orders_by_date_through_gsi2() {
        List<String> shipped = orders().index("GSI2")
                .query(r -> r.queryConditional(QueryConditional.sortBeginsWith(
                        Key.builder().partitionValue("USER#junior").sortValue("SHIPPED#").build())))
                .stream().flatMap(page -> page.items().stream())
                .map(EcommerceOrder::getOrderId).collect(Collectors.toList());
        assertEquals(List.of("1003", "1001"), shipped);
    }

    @Test
    void an_order_and_its_user_through_the_inverted_gsi1() {
        List<String> owners = orders().index("GSI1")
                .query(r -> r.queryConditional(QueryConditional.keyEqualTo(
                        Key.builder().partitionValue("ORDER#1002").build())))
                .stream().flatMap(page -> page.items().stream())
                .map(EcommerceOrder::getPK).collect(Collectors.toList());
        assertEquals(List.of("USER#junior"), owners);
    }

    @Test
    void a_deleted_order_is_back_for_the_next_test() {
        // Runs in any order with the others, which all expect the three seeded orders.
        assertEquals(3, orderIdsOf("junior").size());
        orders().deleteItem(Key.builder().partitionValue("USER#junior").sortValue("ORDER#1002").build());
        assertEquals(List.of("1001", "1003"), orderIdsOf("junior"));
    }

    @Test
    void a_named_snapshot_puts_the_class_database_back() {
        database.snapshot("before-cancel");
        EcommerceOrder order = orders().getItem(Key.builder()
                .partitionValue("USER#junior").sortValue("ORDER#1001").build());
        order.setStatus("CANCELLED");
        orders().updateItem(order);
        orders().putItem(EcommerceOrder.of("junior", "1004", "PLACED", "2024-02-01"));

        database.restore("before-cancel");

        assertEquals(List.of("1001", "1002", "1003"), orderIdsOf("junior"));
        assertEquals("SHIPPED", orders().getItem(Key.builder()
                .partitionValue("USER#junior").sortValue("ORDER#1001").build()).getStatus());
        assertNull(orders().getItem(Key.builder()
                .partitionValue("USER#junior").sortValue("ORDER#1004").build()));
    }
}
