package dev.localdynamo.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against a localdynamo database of its own.
 *
 * <pre>{@code
 * @LocalDynamo
 * class OrdersTest {
 *     DynamoDbClient dynamo;   // injected: null, non-final fields of the supported types
 *
 *     @BeforeAll
 *     static void seed(DynamoDbClient dynamo) { ... }   // the seed every test starts from
 *
 *     @Test
 *     void places_an_order(DynamoDbEnhancedClient enhanced) { ... }
 * }
 * }</pre>
 *
 * <p>Injected into fields (static ones before {@code @BeforeAll}, instance ones when the instance
 * is made) and into parameters of constructors, lifecycle and test methods: a
 * {@code DynamoDbClient}, a {@code DynamoDbStreamsClient}, a {@code DynamoDbEnhancedClient}
 * (when the suite has {@code dynamodb-enhanced}), the endpoint as a {@link java.net.URI}, and the
 * {@link LocalDynamoDatabase} itself (snapshots, the admin API, client builders).
 * {@code @Nested} classes share their enclosing class's database.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(LocalDynamoExtension.class)
public @interface LocalDynamo {
    /**
     * Whether the class's database holds the server's preloaded models (the tables of
     * {@code ecommerce}, {@code tenants}, ...) or starts empty.
     *
     * @return true (the default) for the models
     */
    boolean models() default true;

    /**
     * When the database is put back to the seed.
     *
     * @return {@link ResetMode#EACH_TEST} by default
     */
    ResetMode reset() default ResetMode.EACH_TEST;
}
