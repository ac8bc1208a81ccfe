package localdynamo.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Expression;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.EnhancedGlobalSecondaryIndex;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.enhanced.dynamodb.model.UpdateItemEnhancedRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/** The Enhanced Client as its guide shows it: a bean saved, loaded, updated, queried. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MapperScenarioTest {
    private final DynamoDbClient ddb;
    private final DynamoDbEnhancedClient enhanced;

    MapperScenarioTest(LocalDynamo server) {
        this.ddb = SdkClients.sync(server);
        this.enhanced = SdkClients.enhanced(ddb);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
    }

    @Test
    void mapper() {
        String tableName = Tables.name("mapper");
        Tables.dropIfPresent(ddb, tableName);
        DynamoDbTable<Order> orders = enhanced.table(tableName, TableSchema.fromBean(Order.class));
        orders.createTable(r -> r.globalSecondaryIndices(EnhancedGlobalSecondaryIndex.builder()
                .indexName(Order.BY_STATUS).projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        ddb.waiter().waitUntilTableExists(r -> r.tableName(tableName));

        Order first = new Order("ana", "o-1", "PLACED", "2026-01-10", 1250);
        Order second = new Order("ana", "o-2", "PLACED", "2026-01-11", 990);
        Order other = new Order("ben", "o-1", "PLACED", "2026-01-09", 100);
        orders.putItem(first);
        orders.putItem(second);
        orders.putItem(other);
        assertEquals(first, orders.getItem(r -> r.key(key(first)).consistentRead(true)));

        // Ship o-1 only if it is still PLACED; a second try finds it SHIPPED and fails.
        Order shipped = new Order("ana", "o-1", "SHIPPED", "2026-01-10", 1250);
        Expression stillPlaced = Expression.builder().expression("#s = :placed")
                .expressionNames(Map.of("#s", "status"))
                .expressionValues(Map.of(":placed", AttributeValue.fromS("PLACED"))).build();
        Order updated = orders.updateItem(UpdateItemEnhancedRequest.builder(Order.class)
                .item(shipped).conditionExpression(stillPlaced).build());
        assertEquals(shipped, updated);
        assertThrows(ConditionalCheckFailedException.class, () -> orders.updateItem(
                UpdateItemEnhancedRequest.builder(Order.class)
                        .item(new Order("ana", "o-1", "CANCELLED", "2026-01-10", 0))
                        .conditionExpression(stillPlaced).build()));
        assertEquals(shipped, orders.getItem(r -> r.key(key(first)).consistentRead(true)));

        List<Order> anas = orders.query(r -> r.queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue("ana"))))
                .items().stream().collect(Collectors.toList());
        assertEquals(List.of(shipped, second), anas, "the table's query, in sort-key order");

        List<Order> placed = orders.index(Order.BY_STATUS)
                .query(r -> r.queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue("PLACED"))))
                .stream().flatMap(page -> page.items().stream()).collect(Collectors.toList());
        assertEquals(List.of(other, second), placed, "the index's query, in placedAt order");
        List<Order> shippedOnes = orders.index(Order.BY_STATUS)
                .query(r -> r.queryConditional(QueryConditional.keyEqualTo(k -> k.partitionValue("SHIPPED"))))
                .stream().flatMap(page -> page.items().stream()).collect(Collectors.toList());
        assertEquals(List.of(shipped), shippedOnes);
    }

    private static Key key(Order order) {
        return Key.builder().partitionValue(order.getCustomerId()).sortValue(order.getOrderId()).build();
    }
}
