package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.localdynamo.launcher.LocalDynamoException;
import dev.localdynamo.launcher.LocalDynamoServer;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The launcher alone, without the JUnit extension: a server of the test's own. */
class LauncherOnlyTest {
    private static DynamoDbClient clientOf(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD))
                .build();
    }

    @Test
    void starts_on_a_free_loopback_port_serves_and_stops() {
        LocalDynamoServer server = LocalDynamoServer.builder().inMemory().argument("--sample-items").start();
        URI endpoint = server.endpoint();
        assertEquals("127.0.0.1", endpoint.getHost());
        assertTrue(endpoint.getPort() > 0, endpoint.toString());
        try (DynamoDbClient dynamo = clientOf(endpoint)) {
            // --sample-items reached the server: the ecommerce model's users are there.
            Map<String, AttributeValue> profile = dynamo.getItem(b -> b.tableName("ecommerce").key(Map.of(
                    "PK", AttributeValue.fromS("USER#junior"),
                    "SK", AttributeValue.fromS("#PROFILE#junior")))).item();
            assertEquals("junior", profile.get("Username").s());

            server.close();

            assertFalse(server.isRunning());
            assertEquals(0, server.stop());
            assertThrows(SdkClientException.class, () -> dynamo.listTables());
        }
    }

    @Test
    void two_servers_run_side_by_side() {
        try (LocalDynamoServer first = LocalDynamoServer.builder().inMemory().start();
             LocalDynamoServer second = LocalDynamoServer.builder().inMemory().start();
             DynamoDbClient a = clientOf(first.endpoint());
             DynamoDbClient b = clientOf(second.endpoint())) {
            assertNotEquals(first.endpoint(), second.endpoint());
            a.deleteTable(r -> r.tableName("tenants"));
            assertFalse(a.listTables().tableNames().contains("tenants"));
            assertTrue(b.listTables().tableNames().contains("tenants"));
        }
    }

    @Test
    void a_server_that_cannot_start_says_why() {
        LocalDynamoException error = assertThrows(LocalDynamoException.class,
                () -> LocalDynamoServer.builder().argument("--no-such-flag").start());
        assertTrue(error.getMessage().contains("exited during start-up (code 2)"), error.getMessage());
        assertTrue(error.getMessage().contains("--no-such-flag"), error.getMessage());
    }
}
