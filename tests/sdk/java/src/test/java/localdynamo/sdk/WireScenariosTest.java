package localdynamo.sdk;

import static localdynamo.sdk.AttributeValues.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** What the SDK does on the wire: its standard retries, and its CRC32 check of answers. */
@ExtendWith(LocalDynamoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WireScenariosTest {
    private final LocalDynamo server;
    private final DynamoDbClient ddb;
    private final AdminApi admin;

    WireScenariosTest(LocalDynamo server) {
        this.server = server;
        this.ddb = SdkClients.sync(server);
        this.admin = new AdminApi(server);
    }

    @AfterAll
    void closeClients() {
        ddb.close();
    }

    @Test
    void retries() {
        String table = Tables.name("retries");
        Tables.create(ddb, Tables.keyed(table, false).build());
        admin.addFault("{\"Operations\": [\"PutItem\"], \"Tables\": [\"" + table + "\"], \"Count\": 2,"
                + " \"Error\": {\"Type\": \"ThrottlingException\"}}");
        AttemptCounter counter = new AttemptCounter();

        try (DynamoDbClient retrying = SdkClients.sync(server, o -> o
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy())
                .addExecutionInterceptor(counter))) {
            retrying.putItem(r -> r.tableName(table).item(Map.of("pk", s("after-two-throttles"))));
        }

        assertEquals(3, counter.attempts(), "two throttled attempts, then the one that succeeded");
        assertEquals(List.of(400, 400, 200), counter.statuses());
        assertTrue(ddb.getItem(r -> r.tableName(table).key(Map.of("pk", s("after-two-throttles")))
                .consistentRead(true)).hasItem());
        assertFalse(admin.faults().contains(table), "the rule's two uses are spent: it is gone");
    }

    @Test
    void crc32() {
        String table = Tables.name("crc32");
        Tables.create(ddb, Tables.keyed(table, false).build());
        // 40 items of 3,000 random letters: an answer of about 120 KB in one Scan page.
        Random random = new Random(32);
        List<String> keys = IntStream.range(0, 40).mapToObj(i -> "item-" + i).collect(Collectors.toList());
        for (int start = 0; start < keys.size(); start += 20) {
            List<WriteRequest> puts = keys.subList(start, start + 20).stream()
                    .map(pk -> WriteRequest.builder().putRequest(PutRequest.builder()
                            .item(Map.of("pk", s(pk), "text", s(letters(random, 3000)))).build()).build())
                    .collect(Collectors.toList());
            assertTrue(ddb.batchWriteItem(r -> r.requestItems(Map.of(table, puts))).unprocessedItems().isEmpty());
        }

        Crc32Recorder recorder = new Crc32Recorder();
        ScanResponse answer;
        try (DynamoDbClient checking = SdkClients.sync(server, o -> o.addExecutionInterceptor(recorder))) {
            answer = checking.scan(r -> r.tableName(table));
        }
        assertEquals(40, answer.count(), "the SDK accepted the answer");
        assertFalse(answer.hasLastEvaluatedKey());
        assertTrue(recorder.bodyLength() > 100 * 1024, "an answer over 100 KB: " + recorder.bodyLength());
        assertNull(recorder.contentEncoding(), "gzip off: the body came as sent");
        assertNotNull(recorder.header(), "the answer carries x-amz-crc32");
        assertEquals(recorder.bodyCrc32(), Long.parseLong(recorder.header()), "x-amz-crc32 is the body's CRC32");

        // The SDK's own check is on: the same answer with a wrong header is refused.
        try (DynamoDbClient corrupted = SdkClients.sync(server, o -> o.addExecutionInterceptor(new WrongCrc32()))) {
            assertThrows(Crc32MismatchException.class, () -> corrupted.scan(r -> r.tableName(table)));
        }
    }

    private static String letters(Random random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append((char) ('a' + random.nextInt(26)));
        }
        return out.toString();
    }

    /** Replaces the answer's x-amz-crc32 with one that cannot match its body. */
    private static final class WrongCrc32 implements ExecutionInterceptor {
        @Override
        public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            long sent = Long.parseLong(context.httpResponse().firstMatchingHeader("x-amz-crc32").orElse("0"));
            return context.httpResponse().toBuilder()
                    .putHeader("x-amz-crc32", Long.toString((sent + 1) & 0xffffffffL)).build();
        }
    }
}
