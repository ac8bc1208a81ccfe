package localdynamo.sdk;

import static localdynamo.sdk.AttributeValues.n;
import static localdynamo.sdk.AttributeValues.plain;
import static localdynamo.sdk.AttributeValues.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Single-item scenarios through the sync client: types, conditions, transactions, PartiQL. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ItemScenariosTest {
    private final DynamoDbClient ddb;

    ItemScenariosTest(LocalDynamo server) {
        this.ddb = SdkClients.sync(server);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
    }

    @Test
    void attribute_types() {
        String table = Tables.name("attribute_types");
        Tables.create(ddb, Tables.keyed(table, false).build());
        String digits38 = "12345678901234567890123456789012345678";
        byte[] bytes = {0, 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff, 10, 13};
        Map<String, AttributeValue> scalars = new LinkedHashMap<>();
        scalars.put("s", s("text ünïcode ✓"));
        scalars.put("n", n(digits38));
        scalars.put("negative_fraction", n("-0.000000000000000000000000000000000000012"));
        scalars.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(bytes)));
        scalars.put("ss", AttributeValue.fromSs(List.of("a", "b", "c")));
        scalars.put("ns", AttributeValue.fromNs(List.of("1", "-2.5", digits38)));
        scalars.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}),
                SdkBytes.fromByteArray(new byte[] {(byte) 0xfe, 0}))));
        scalars.put("bool", AttributeValue.fromBool(true));
        scalars.put("null", AttributeValue.fromNul(true));
        Map<String, AttributeValue> item = new LinkedHashMap<>(scalars);
        item.put("pk", s("every-type"));
        // A map holding a list holding a map of them all.
        item.put("nested", AttributeValue.fromM(Map.of("list",
                AttributeValue.fromL(List.of(AttributeValue.fromM(scalars), n("7"))))));

        ddb.putItem(r -> r.tableName(table).item(item));
        Map<String, AttributeValue> back = ddb.getItem(r -> r.tableName(table)
                .key(Map.of("pk", s("every-type"))).consistentRead(true)).item();

        assertEquals(plain(item), plain(back));
        assertEquals(digits38, back.get("n").n());
        assertArrayEquals(bytes, back.get("b").b().asByteArray());
        assertEquals(AttributeValue.Type.SS, back.get("ss").type());
        assertEquals(AttributeValue.Type.NS, back.get("ns").type());
        assertEquals(AttributeValue.Type.BS, back.get("bs").type());
        Map<String, AttributeValue> deep = back.get("nested").m().get("list").l().get(0).m();
        assertEquals(digits38, deep.get("n").n());
        assertArrayEquals(bytes, deep.get("b").b().asByteArray());
    }

    @Test
    void conditional_write() {
        String table = Tables.name("conditional_write");
        Tables.create(ddb, Tables.keyed(table, false).build());
        Map<String, AttributeValue> original = Map.of("pk", s("k"), "v", s("original"), "n", n(1));
        ddb.putItem(r -> r.tableName(table).item(original));

        ConditionalCheckFailedException failed = assertThrows(ConditionalCheckFailedException.class,
                () -> ddb.putItem(r -> r.tableName(table)
                        .item(Map.of("pk", s("k"), "v", s("replacement")))
                        .conditionExpression("attribute_not_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));

        assertTrue(failed.hasItem(), "the exception carries the old item");
        assertEquals(original, failed.item());
        assertEquals(original, ddb.getItem(r -> r.tableName(table).key(Map.of("pk", s("k")))
                .consistentRead(true)).item());
    }

    @Test
    void transaction_cancellation() {
        String table = Tables.name("transaction_cancellation");
        Tables.create(ddb, Tables.keyed(table, false).build());

        TransactionCanceledException cancelled = assertThrows(TransactionCanceledException.class,
                () -> ddb.transactWriteItems(r -> r.transactItems(
                        TransactWriteItem.builder().put(p -> p.tableName(table)
                                .item(Map.of("pk", s("put"), "v", n(1)))).build(),
                        TransactWriteItem.builder().conditionCheck(c -> c.tableName(table)
                                .key(Map.of("pk", s("absent")))
                                .conditionExpression("attribute_exists(pk)")).build(),
                        TransactWriteItem.builder().update(u -> u.tableName(table)
                                .key(Map.of("pk", s("update")))
                                .updateExpression("SET v = :v")
                                .expressionAttributeValues(Map.of(":v", n(2)))).build())));

        assertTrue(cancelled.hasCancellationReasons());
        assertEquals(List.of("None", "ConditionalCheckFailed", "None"),
                cancelled.cancellationReasons().stream().map(CancellationReason::code)
                        .collect(Collectors.toList()));
        for (String pk : List.of("put", "absent", "update")) {
            assertFalse(ddb.getItem(r -> r.tableName(table).key(Map.of("pk", s(pk)))
                    .consistentRead(true)).hasItem(), pk + " was not written");
        }
    }

    @Test
    void partiql() {
        String table = Tables.name("partiql");
        Tables.create(ddb, Tables.keyed(table, false).build());
        String insert = "INSERT INTO \"" + table + "\" VALUE {'pk': ?, 'n': ?}";
        ddb.executeStatement(r -> r.statement(insert).parameters(s("p1"), n(1)));
        ddb.executeStatement(r -> r.statement(insert).parameters(s("p2"), n(2)));
        assertEquals(List.of(Map.of("pk", s("p1"), "n", n(1))), select(table, "p1"));

        String update = "UPDATE \"" + table + "\" SET n = ? WHERE pk = ?";
        BatchExecuteStatementResponse batch = ddb.batchExecuteStatement(r -> r.statements(
                BatchStatementRequest.builder().statement(update).parameters(n(10), s("p1")).build(),
                BatchStatementRequest.builder().statement(update).parameters(n(20), s("p2")).build()));
        assertEquals(2, batch.responses().size());
        batch.responses().forEach(answer -> assertEquals(null, answer.error(), "batch statement error"));
        assertEquals(List.of(Map.of("pk", s("p1"), "n", n(10))), select(table, "p1"));
        assertEquals(List.of(Map.of("pk", s("p2"), "n", n(20))), select(table, "p2"));

        ddb.executeTransaction(r -> r.transactStatements(
                ParameterizedStatement.builder().statement(insert).parameters(s("p3"), n(3)).build(),
                ParameterizedStatement.builder().statement("DELETE FROM \"" + table + "\" WHERE pk = ?")
                        .parameters(s("p1")).build()));
        assertEquals(List.of(Map.of("pk", s("p3"), "n", n(3))), select(table, "p3"));
        assertEquals(List.of(), select(table, "p1"));

        assertThrows(DuplicateItemException.class,
                () -> ddb.executeStatement(r -> r.statement(insert).parameters(s("p2"), n(99))));
        assertEquals(List.of(Map.of("pk", s("p2"), "n", n(20))), select(table, "p2"));
    }

    private List<Map<String, AttributeValue>> select(String table, String pk) {
        return ddb.executeStatement(r -> r.statement("SELECT * FROM \"" + table + "\" WHERE pk = ?")
                .parameters(s(pk)).consistentRead(true)).items();
    }
}
