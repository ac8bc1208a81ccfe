package dev.localdynamo.junit5;

import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The enhanced client, kept apart so that its classes load only when a test asks for one:
 * {@code dynamodb-enhanced} is optional for the suite.
 */
final class EnhancedClients {
    static final String CLASS_NAME = "software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient";

    private EnhancedClients() {
    }

    static DynamoDbEnhancedClient create(DynamoDbClient client) {
        return DynamoDbEnhancedClient.builder().dynamoDbClient(client).build();
    }
}
