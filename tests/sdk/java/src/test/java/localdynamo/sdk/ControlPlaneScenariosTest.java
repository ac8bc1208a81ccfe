package localdynamo.sdk;

import static localdynamo.sdk.AttributeValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.waiters.WaiterResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.SearchResultItem;
import software.amazon.awssdk.services.dynamodb.model.SearchVectorsResponse;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.VectorIndex;

/** Table lifecycle scenarios: the SDK's waiters, and a vector index searched with SearchVectors. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlPlaneScenariosTest {
    private final DynamoDbClient ddb;

    ControlPlaneScenariosTest(LocalDynamo server) {
        this.ddb = SdkClients.sync(server);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
    }

    @Test
    void waiters() {
        String table = Tables.name("waiters");
        Tables.dropIfPresent(ddb, table);

        ddb.createTable(Tables.keyed(table, false).build());
        WaiterResponse<DescribeTableResponse> exists =
                ddb.waiter().waitUntilTableExists(r -> r.tableName(table));
        assertTrue(exists.matched().response().isPresent(), "the table-exists waiter succeeded");
        assertEquals(TableStatus.ACTIVE, exists.matched().response().get().table().tableStatus());
        assertEquals(TableStatus.ACTIVE, ddb.describeTable(r -> r.tableName(table)).table().tableStatus());

        ddb.deleteTable(r -> r.tableName(table));
        WaiterResponse<DescribeTableResponse> gone =
                ddb.waiter().waitUntilTableNotExists(r -> r.tableName(table));
        // The not-exists waiter succeeds on the ResourceNotFoundException it was waiting for.
        assertTrue(gone.matched().exception().isPresent(), "the table-not-exists waiter succeeded");
        assertInstanceOf(ResourceNotFoundException.class, gone.matched().exception().get());
        assertThrows(ResourceNotFoundException.class, () -> ddb.describeTable(r -> r.tableName(table)));
    }

    @Test
    void vector_search() {
        // SDK 2.57.8 has SearchVectors (and VectorIndexes on CreateTable), so this runs.
        String table = Tables.name("vector_search");
        Tables.create(ddb, Tables.keyed(table, false).vectorIndexes(VectorIndex.builder()
                .indexName("by_embedding")
                .vectorAttribute(a -> a.attributeName("embedding"))
                .dimensions(3L)
                .distanceFunction(VectorDistanceFunction.EUCLIDEAN)
                .projection(p -> p.projectionType(ProjectionType.ALL))
                .build()).build());
        Map<String, List<Double>> vectors = new LinkedHashMap<>();
        vectors.put("origin", List.of(0.0, 0.0, 0.0));
        vectors.put("x", List.of(1.0, 0.0, 0.0));
        vectors.put("y2", List.of(0.0, 2.0, 0.0));
        vectors.put("far", List.of(5.0, 5.0, 5.0));
        vectors.forEach((pk, v) -> ddb.putItem(r -> r.tableName(table)
                .item(Map.of("pk", s(pk), "embedding", vector(v)))));

        List<Double> query = List.of(0.9, 0.1, 0.0);
        SearchVectorsResponse answer = ddb.searchVectors(r -> r.tableName(table).indexName("by_embedding")
                .searchVector(numbers(query)).topK(2));

        assertEquals(List.of("x", "origin"), answer.searchResults().stream()
                .map(hit -> hit.item().get("pk").s()).collect(Collectors.toList()), "the two nearest, nearest first");
        List<Double> scores = answer.searchResults().stream().map(SearchResultItem::score)
                .collect(Collectors.toList());
        assertEquals(euclidean(query, vectors.get("x")), scores.get(0), 1e-6);
        assertEquals(euclidean(query, vectors.get("origin")), scores.get(1), 1e-6);
    }

    private static AttributeValue vector(List<Double> v) {
        return AttributeValue.fromL(numbers(v));
    }

    private static List<AttributeValue> numbers(List<Double> v) {
        return v.stream().map(d -> AttributeValue.fromN(Double.toString(d))).collect(Collectors.toList());
    }

    private static double euclidean(List<Double> a, List<Double> b) {
        double sum = 0;
        for (int i = 0; i < a.size(); i++) {
            double d = (float) (double) a.get(i) - (float) (double) b.get(i);  // the index stores f32
            sum += d * d;
        }
        return Math.sqrt(sum);
    }
}
