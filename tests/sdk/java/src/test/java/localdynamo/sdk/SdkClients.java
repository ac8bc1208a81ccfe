package localdynamo.sdk;

import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * SDK clients pointed at the test server: static key, us-east-1. They do not retry
 * unless a scenario asks (`retries`), so every answer the server gives is seen as given.
 */
public final class SdkClients {
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("java", "java"));

    private SdkClients() {
    }

    private static void noRetries(ClientOverrideConfiguration.Builder o) {
        o.retryStrategy(AwsRetryStrategy.doNotRetry());
    }

    /** The sync client over the Apache HttpClient 5 client (the Apache 4 one is deprecated in 2.57). */
    public static DynamoDbClient sync(LocalDynamo server) {
        return sync(server, SdkClients::noRetries);
    }

    public static DynamoDbClient sync(LocalDynamo server,
                                      Consumer<ClientOverrideConfiguration.Builder> overrides) {
        return DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(Apache5HttpClient.builder())
                .overrideConfiguration(overrides)
                .build();
    }

    /** The async client over Netty. */
    public static DynamoDbAsyncClient async(LocalDynamo server) {
        return DynamoDbAsyncClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(NettyNioAsyncHttpClient.builder())
                .overrideConfiguration(SdkClients::noRetries)
                .build();
    }

    public static DynamoDbEnhancedClient enhanced(DynamoDbClient client) {
        return DynamoDbEnhancedClient.builder().dynamoDbClient(client).build();
    }

    public static DynamoDbStreamsClient streams(LocalDynamo server) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(Apache5HttpClient.builder())
                .overrideConfiguration(SdkClients::noRetries)
                .build();
    }
}
