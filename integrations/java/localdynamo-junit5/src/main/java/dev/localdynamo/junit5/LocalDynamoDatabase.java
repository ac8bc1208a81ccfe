package dev.localdynamo.junit5;

import dev.localdynamo.launcher.AdminClient;
import java.net.URI;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClientBuilder;

/**
 * One test class's database: its own access key on the run's server, so its own tables and
 * items. Injectable into fields and parameters of a {@link LocalDynamo} class.
 *
 * <p>The database is prepared before the class (emptied, or given the preloaded models); with
 * {@link ResetMode#EACH_TEST}, what it holds before the first test is saved and put back
 * before every later one. Tests may save and restore snapshots of their own by name.
 */
public final class LocalDynamoDatabase implements AutoCloseable {
    /** The region the class's clients use. */
    public static final String REGION = "us-east-1";

    private static final Pattern SNAPSHOT_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final String SEED = "seed";

    private final URI endpoint;
    private final String accessKey;
    private final AdminClient admin;
    private final boolean models;
    private final Set<String> taken = new TreeSet<>();
    private DynamoDbClient client;
    private DynamoDbStreamsClient streamsClient;
    private DynamoDbEnhancedClient enhancedClient;
    private boolean seedSaved;

    LocalDynamoDatabase(URI endpoint, String accessKey, boolean models) {
        this.endpoint = endpoint;
        this.accessKey = accessKey;
        this.admin = new AdminClient(endpoint);
        this.models = models;
    }

    /**
     * The server's address.
     *
     * @return e.g. {@code http://127.0.0.1:41523}
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * The access key that selects this database.
     *
     * @return the class's key
     */
    public String accessKey() {
        return accessKey;
    }

    /**
     * The secret key the clients sign with (the server accepts any).
     *
     * @return the secret key
     */
    public String secretKey() {
        return Clients.SECRET_KEY;
    }

    /**
     * The region of the clients.
     *
     * @return {@value #REGION}
     */
    public String region() {
        return REGION;
    }

    /**
     * This database's name in the admin API.
     *
     * @return {@code "<access key>/<region>"}
     */
    public String namespace() {
        return accessKey + "/" + REGION;
    }

    /**
     * The server's admin API (the test clock, faults, ...); pass {@link #namespace()} where a
     * call takes one.
     *
     * @return an admin client
     */
    public AdminClient admin() {
        return admin;
    }

    /**
     * A client builder already pointed at this database, for a client of a test's own
     * (interceptors, retry settings...).
     *
     * @return a builder with endpoint, region and credentials set
     */
    public DynamoDbClientBuilder clientBuilder() {
        return Clients.dynamoDb(endpoint, accessKey, REGION);
    }

    /**
     * A DynamoDB Streams client builder pointed at this database.
     *
     * @return a builder with endpoint, region and credentials set
     */
    public DynamoDbStreamsClientBuilder streamsClientBuilder() {
        return Clients.streams(endpoint, accessKey, REGION);
    }

    /**
     * The class's DynamoDB client (closed after the class).
     *
     * @return a client of this database
     */
    public synchronized DynamoDbClient client() {
        if (client == null) {
            client = clientBuilder().build();
        }
        return client;
    }

    /**
     * The class's DynamoDB Streams client (closed after the class).
     *
     * @return a streams client of this database
     */
    public synchronized DynamoDbStreamsClient streamsClient() {
        if (streamsClient == null) {
            streamsClient = streamsClientBuilder().build();
        }
        return streamsClient;
    }

    /**
     * The class's enhanced client; needs {@code software.amazon.awssdk:dynamodb-enhanced} on
     * the test class path (only this method does).
     *
     * @return an enhanced client over {@link #client()}
     */
    public synchronized DynamoDbEnhancedClient enhancedClient() {
        if (enhancedClient == null) {
            enhancedClient = EnhancedClients.create(client());
        }
        return enhancedClient;
    }

    /**
     * Saves this database as {@code name} (replacing an earlier snapshot of that name). The
     * names are the class's own: two classes saving "cart-full" keep two snapshots.
     *
     * @param name letters, digits, {@code .}, {@code _} or {@code -}
     * @return the server's answer
     */
    public String snapshot(String name) {
        String full = fullName(name);
        String answer = admin.snapshot(full, namespace());
        synchronized (this) {
            taken.add(full);
        }
        return answer;
    }

    /**
     * Puts this database back to snapshot {@code name}.
     *
     * @param name a name given to {@link #snapshot(String)}
     * @return the server's answer
     */
    public String restore(String name) {
        return admin.restore(fullName(name), namespace());
    }

    /**
     * Empties the database (or gives it the preloaded models again, as the class asked): the
     * state before the class's {@code @BeforeAll} methods.
     *
     * @return the server's answer
     */
    public String resetToStart() {
        return admin.reset(namespace(), models);
    }

    /** Before the class: the database exists, then is emptied or given the models afresh. */
    void prepare() {
        // A database is created, and given the models, on its first request; make that
        // happen now so that the reset has the last word.
        client().listTables(b -> b.limit(1));
        resetToStart();
    }

    /** Before each test: the first saves the seed, the others put it back. */
    synchronized void beforeTest() {
        if (seedSaved) {
            restore(SEED);
        } else {
            snapshot(SEED);
            seedSaved = true;
        }
    }

    private String fullName(String name) {
        if (name == null || !SNAPSHOT_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "snapshot names are 1 to 100 letters, digits, '.', '_' or '-': " + name);
        }
        return accessKey + "." + name;
    }

    /** Forgets the class's snapshots (they live in the server's memory) and closes the clients. */
    @Override
    public synchronized void close() {
        for (String name : taken) {
            admin.deleteSnapshot(name);
        }
        taken.clear();
        if (streamsClient != null) {
            streamsClient.close();
        }
        if (client != null) {
            client.close();
        }
    }
}
