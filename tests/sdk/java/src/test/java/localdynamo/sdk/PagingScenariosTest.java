package localdynamo.sdk;

import static localdynamo.sdk.AttributeValues.n;
import static localdynamo.sdk.AttributeValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Many-item scenarios: the SDK's paginators (sync and async), parallel scan, batch writes. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PagingScenariosTest {
    private final DynamoDbClient ddb;
    private final DynamoDbAsyncClient async;
    private final AdminApi admin;

    PagingScenariosTest(LocalDynamo server) {
        this.ddb = SdkClients.sync(server);
        this.async = SdkClients.async(server);
        this.admin = new AdminApi(server);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
        async.close();
    }

    @Test
    void paginators() {
        String table = Tables.name("paginators");
        Tables.create(ddb, Tables.keyed(table, true).build());
        List<String> sortKeys = IntStream.range(0, 25).mapToObj(i -> String.format("s%02d", i))
                .collect(Collectors.toList());
        for (String sk : sortKeys) {
            ddb.putItem(r -> r.tableName(table).item(Map.of("pk", s("p"), "sk", s(sk))));
        }

        // Query through the sync client's paginator.
        List<QueryResponse> queryPages = new ArrayList<>();
        ddb.queryPaginator(r -> r.tableName(table).limit(4)
                .keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("p")))).forEach(queryPages::add);
        assertEquals(7, queryPages.size(), "Query pages");
        assertEquals(sortKeys, queryPages.stream().flatMap(p -> p.items().stream())
                .map(item -> item.get("sk").s()).collect(Collectors.toList()));
        assertFalse(queryPages.get(6).hasLastEvaluatedKey(), "the last Query page has no LastEvaluatedKey");

        // Scan through the async client's publisher.
        List<ScanResponse> scanPages = Collections.synchronizedList(new ArrayList<>());
        async.scanPaginator(r -> r.tableName(table).limit(7)).subscribe(scanPages::add).join();
        assertEquals(4, scanPages.size(), "Scan pages");
        List<String> scanned = scanPages.stream().flatMap(p -> p.items().stream())
                .map(item -> item.get("sk").s()).collect(Collectors.toList());
        assertEquals(25, scanned.size());
        assertEquals(new HashSet<>(sortKeys), new HashSet<>(scanned));
        assertFalse(scanPages.get(3).hasLastEvaluatedKey(), "the last Scan page has no LastEvaluatedKey");
    }

    @Test
    void parallel_scan() {
        String table = Tables.name("parallel_scan");
        Tables.create(ddb, Tables.keyed(table, false).build());
        List<String> keys = IntStream.range(0, 100).mapToObj(i -> "item-" + i).collect(Collectors.toList());
        for (int start = 0; start < keys.size(); start += 25) {
            List<WriteRequest> puts = keys.subList(start, start + 25).stream()
                    .map(pk -> put(Map.of("pk", s(pk)))).collect(Collectors.toList());
            BatchWriteItemResponse answer = ddb.batchWriteItem(r -> r.requestItems(Map.of(table, puts)));
            assertTrue(answer.unprocessedItems().isEmpty(), "an on-demand table takes every put");
        }

        // One call chain per segment, all four running at once on the Netty client.
        int segments = 4;
        List<List<String>> found = new ArrayList<>();
        List<CompletableFuture<Void>> chains = new ArrayList<>();
        for (int segment = 0; segment < segments; segment++) {
            List<String> mine = Collections.synchronizedList(new ArrayList<>());
            found.add(mine);
            int thisSegment = segment;
            chains.add(async.scanPaginator(r -> r.tableName(table).segment(thisSegment)
                    .totalSegments(segments).limit(10)).items().subscribe(item -> mine.add(item.get("pk").s())));
        }
        CompletableFuture.allOf(chains.toArray(new CompletableFuture[0])).join();

        Set<String> union = new HashSet<>();
        int total = 0;
        for (List<String> segment : found) {
            total += segment.size();
            union.addAll(segment);
        }
        assertEquals(100, total, "items over all segments, counting repeats");
        assertEquals(new HashSet<>(keys), union, "the segments together hold the 100 items, each once");
    }

    @Test
    void batch_unprocessed() {
        String table = Tables.name("batch_unprocessed");
        admin.freezeClock();
        try {
            Tables.create(ddb, Tables.keyed(table, false).billingMode(BillingMode.PROVISIONED)
                    .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)).build());
            List<WriteRequest> puts = IntStream.range(0, 25)
                    .mapToObj(i -> put(Map.of("pk", s("item-" + i), "n", n(i)))).collect(Collectors.toList());

            Map<String, List<WriteRequest>> pending = ddb.batchWriteItem(r -> r.requestItems(Map.of(table, puts)))
                    .unprocessedItems();
            assertFalse(pending.isEmpty(), "5 WCU cannot take 25 puts at once: some come back unprocessed");
            int rounds = 1;
            // Bounded: at 5 units a second the 25 puts need about five rounds.
            while (!pending.isEmpty() && rounds < 60) {
                admin.advanceClockSeconds(1);
                Map<String, List<WriteRequest>> again = pending;
                pending = ddb.batchWriteItem(r -> r.requestItems(again)).unprocessedItems();
                rounds++;
            }

            assertTrue(pending.isEmpty(), "every put was taken in the end");
            assertTrue(rounds > 1, "more than one round");
            Set<String> stored = new HashSet<>();
            ddb.scanPaginator(r -> r.tableName(table).consistentRead(true)).items()
                    .forEach(item -> stored.add(item.get("pk").s()));
            assertEquals(IntStream.range(0, 25).mapToObj(i -> "item-" + i).collect(Collectors.toSet()), stored);
        } finally {
            admin.resetClock();
        }
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }
}
