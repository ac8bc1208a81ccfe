package localdynamo.sdk;

import static localdynamo.sdk.AttributeValues.n;
import static localdynamo.sdk.AttributeValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** TTL expiry on the test clock, read back as stream records through the Streams client. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamsTtlScenarioTest {
    private final DynamoDbClient ddb;
    private final DynamoDbStreamsClient streams;
    private final AdminApi admin;

    StreamsTtlScenarioTest(LocalDynamo server) {
        this.ddb = SdkClients.sync(server);
        this.streams = SdkClients.streams(server);
        this.admin = new AdminApi(server);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
        streams.close();
    }

    @Test
    void streams_ttl() {
        String table = Tables.name("streams_ttl");
        Tables.create(ddb, Tables.keyed(table, false).streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)).build());
        ddb.updateTimeToLive(r -> r.tableName(table)
                .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
        String streamArn = ddb.describeTable(r -> r.tableName(table)).table().latestStreamArn();
        assertNotNull(streamArn);

        admin.freezeClock();
        Map<String, AttributeValue> item;
        try {
            long expires = admin.clockMillis() / 1000 + 60;
            item = Map.of("pk", s("short-lived"), "expires", n(expires), "payload", s("bye"));
            ddb.putItem(r -> r.tableName(table).item(item));
            admin.advanceClockSeconds(120);
            admin.sweep();
        } finally {
            admin.resetClock();
        }
        assertFalse(ddb.getItem(r -> r.tableName(table).key(Map.of("pk", s("short-lived")))
                .consistentRead(true)).hasItem(), "the sweep deleted the expired item");

        List<Record> records = readFromTrimHorizon(streamArn);
        assertEquals(2, records.size(), "an INSERT and the TTL's REMOVE: " + records);

        Record insert = records.get(0);
        assertEquals(OperationType.INSERT, insert.eventName());
        assertEquals(item, insert.dynamodb().newImage());
        assertNull(insert.userIdentity(), "a write of ours carries no userIdentity");

        Record remove = records.get(1);
        assertEquals(OperationType.REMOVE, remove.eventName());
        assertEquals(item, remove.dynamodb().oldImage());
        assertNotNull(remove.userIdentity(), "a TTL deletion names the service that did it");
        assertEquals("Service", remove.userIdentity().type());
        assertEquals("dynamodb.amazonaws.com", remove.userIdentity().principalId());
    }

    // Every record of every shard, oldest first; an open shard's iterator never ends,
    // so each shard is read until a call brings nothing new (at most 10 calls).
    private List<Record> readFromTrimHorizon(String streamArn) {
        List<Record> records = new ArrayList<>();
        for (Shard shard : streams.describeStream(r -> r.streamArn(streamArn)).streamDescription().shards()) {
            String iterator = streams.getShardIterator(r -> r.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            for (int call = 0; call < 10 && iterator != null; call++) {
                String current = iterator;
                GetRecordsResponse page = streams.getRecords(r -> r.shardIterator(current));
                records.addAll(page.records());
                if (page.records().isEmpty()) {
                    break;
                }
                iterator = page.nextShardIterator();
            }
        }
        return records;
    }
}
