package dev.localdynamo.junit5;

import java.io.ByteArrayInputStream;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClientBuilder;

/**
 * Builders of AWS SDK clients signed with one database's access key. They read neither the
 * environment's credentials nor the developer's {@code ~/.aws} files: a profile named there
 * (or one that does not exist) must not change what a test reaches.
 */
final class Clients {
    static final String SECRET_KEY = "localdynamo";

    private Clients() {
    }

    static DynamoDbClientBuilder dynamoDb(URI endpoint, String accessKey, String region) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .credentialsProvider(credentials(accessKey))
                .overrideConfiguration(c -> c.defaultProfileFile(emptyProfileFile()).defaultProfileName("default"));
    }

    static DynamoDbStreamsClientBuilder streams(URI endpoint, String accessKey, String region) {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .credentialsProvider(credentials(accessKey))
                .overrideConfiguration(c -> c.defaultProfileFile(emptyProfileFile()).defaultProfileName("default"));
    }

    private static StaticCredentialsProvider credentials(String accessKey) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, SECRET_KEY));
    }

    private static ProfileFile emptyProfileFile() {
        return ProfileFile.builder()
                .content(new ByteArrayInputStream(new byte[0]))
                .type(ProfileFile.Type.CONFIGURATION)
                .build();
    }
}
