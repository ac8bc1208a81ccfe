package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.localdynamo.testcontainers.LocalDynamoContainer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The Testcontainers module against a real container: runs only where run-testcontainers.sh
 * (or a developer) names an image and a Docker-compatible socket.
 */
@EnabledIfEnvironmentVariable(named = "LOCALDYNAMO_IMAGE", matches = ".+")
@EnabledIfEnvironmentVariable(named = "DOCKER_HOST", matches = ".+")
class ContainerTest {
    private static LocalDynamoContainer container;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        container = new LocalDynamoContainer(System.getenv("LOCALDYNAMO_IMAGE")).withCommand("--in-memory");
        container.start();
        dynamo = container.createClient();
    }

    @AfterAll
    static void stop() {
        if (dynamo != null) {
            dynamo.close();
        }
        if (container != null) {
            container.stop();
        }
    }

    @Test
    void the_endpoint_answers_as_soon_as_the_container_is_started() {
        assertTrue(container.getEndpoint().toString().startsWith("http://"), container.getEndpoint().toString());
        List<String> tables = dynamo.listTables().tableNames();
        assertTrue(tables.contains("ecommerce"), tables.toString());
    }

    @Test
    void the_service_code_runs_against_the_container() {
        OrderRepository orders = new OrderRepository(dynamo, "ecommerce");
        orders.place("carla", "7001", "PLACED");
        assertEquals("PLACED", orders.status("carla", "7001"));
        assertEquals(List.of("7001"), orders.orderIds("carla"));
    }
}
