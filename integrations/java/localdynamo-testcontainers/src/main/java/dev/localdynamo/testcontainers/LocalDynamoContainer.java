package dev.localdynamo.testcontainers;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * A localdynamo server in a container.
 *
 * <pre>{@code
 * try (LocalDynamoContainer dynamo = new LocalDynamoContainer()) {
 *     dynamo.start();
 *     DynamoDbClient client = dynamo.createClient();
 *     ...
 * }
 * }</pre>
 *
 * <p>The image's entry point serves on port {@value #PORT} with its data in {@code /data}; the
 * container's command adds flags (e.g. {@code withCommand("--in-memory", "--sample-items")}).
 * The container is ready once the server prints {@code localdynamo listening on http://...}.
 */
public class LocalDynamoContainer extends GenericContainer<LocalDynamoContainer> {
    /** The image used when none is named: the one the repository's Dockerfile builds. */
    public static final String DEFAULT_IMAGE = "localdynamo:test";
    /** The port the server listens on inside the container. */
    public static final int PORT = 8000;

    /** A container of {@value #DEFAULT_IMAGE}. */
    public LocalDynamoContainer() {
        this(DockerImageName.parse(DEFAULT_IMAGE));
    }

    /**
     * A container of another image, e.g. one a registry of the team's serves.
     *
     * @param image an image reference such as {@code registry.example/localdynamo:0.1.0}
     */
    public LocalDynamoContainer(String image) {
        this(DockerImageName.parse(image));
    }

    /**
     * A container of another image.
     *
     * @param image the image
     */
    public LocalDynamoContainer(DockerImageName image) {
        super(image);
        withExposedPorts(PORT);
        waitingFor(Wait.forLogMessage(".*localdynamo listening on http://.*\\n", 1)
                .withStartupTimeout(Duration.ofSeconds(60)));
    }

    /**
     * The server's address as seen from the test, through the mapped port.
     *
     * @return e.g. {@code http://localhost:32771}
     */
    public URI getEndpoint() {
        return URI.create("http://" + getHost() + ":" + getMappedPort(PORT));
    }

    /**
     * A client builder pointed at the container, signed with {@code accessKey} (a database of
     * its own when the server runs with {@code --per-key-databases}), region us-east-1, reading
     * no credentials or profiles from the machine.
     *
     * @param accessKey any access key id
     * @return a builder with endpoint, region and credentials set
     */
    public DynamoDbClientBuilder clientBuilder(String accessKey) {
        ProfileFile noProfiles = ProfileFile.builder()
                .content(new ByteArrayInputStream(new byte[0]))
                .type(ProfileFile.Type.CONFIGURATION)
                .build();
        return DynamoDbClient.builder()
                .endpointOverride(getEndpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(accessKey, "localdynamo")))
                .overrideConfiguration(c -> c.defaultProfileFile(noProfiles).defaultProfileName("default"));
    }

    /**
     * A new client of the container (the caller closes it).
     *
     * @return a client signed with the access key {@code local}
     */
    public DynamoDbClient createClient() {
        return clientBuilder("local").build();
    }
}
