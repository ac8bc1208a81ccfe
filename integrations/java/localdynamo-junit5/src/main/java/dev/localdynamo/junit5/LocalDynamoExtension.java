package dev.localdynamo.junit5;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The extension behind {@link LocalDynamo}; register it with that annotation (or
 * {@code @ExtendWith}). The server lives in the root context's store, each class's database in
 * that class's store; both are closed by JUnit when their context ends.
 */
public final class LocalDynamoExtension
        implements BeforeAllCallback, BeforeEachCallback, TestInstancePostProcessor, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalDynamoExtension.class);

    /** Made by JUnit. */
    public LocalDynamoExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        LocalDynamoDatabase database = database(context);
        injectFields(context.getRequiredTestClass(), null, database);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        injectFields(testInstance.getClass(), testInstance, database(context));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (settings(owner(context)).reset() != ResetMode.EACH_TEST) {
            return;
        }
        if (context.getExecutionMode() == ExecutionMode.CONCURRENT) {
            throw new ExtensionConfigurationException(context.getRequiredTestClass().getName()
                    + "'s tests run concurrently, but each puts the class's database back to its "
                    + "seed before it starts: run them on one thread (@Execution(SAME_THREAD)) "
                    + "or use @LocalDynamo(reset = ResetMode.CLASS)");
        }
        database(context).beforeTest();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return injectable(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return valueOf(parameter.getParameter().getType(), database(context));
    }

    // -- where things live ---------------------------------------------------

    /** The run's server: started by the first class that needs it, stopped at the run's end. */
    private static SharedServer server(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SharedServer.class,
                key -> SharedServer.open(context.getConfigurationParameter(SharedServer.ARGS_PARAMETER)),
                SharedServer.class);
    }

    /** The database of the outermost class around this context, made and prepared on first use. */
    private static LocalDynamoDatabase database(ExtensionContext context) {
        ExtensionContext owner = owner(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(LocalDynamoDatabase.class, key -> {
            SharedServer server = server(owner);
            Class<?> testClass = owner.getRequiredTestClass();
            LocalDynamoDatabase database = new LocalDynamoDatabase(server.endpoint(),
                    server.accessKeyFor(testClass), settings(owner).models());
            database.prepare();
            return database;
        }, LocalDynamoDatabase.class);
    }

    /**
     * The outermost class context: a top-level class owns the database, its {@code @Nested}
     * classes use it too.
     */
    private static ExtensionContext owner(ExtensionContext context) {
        ExtensionContext owner = null;
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            if (c.get().getTestClass().isPresent() && c.get().getTestMethod().isEmpty()) {
                owner = c.get();
            }
        }
        if (owner == null) {
            throw new ExtensionConfigurationException("@LocalDynamo needs a test class");
        }
        return owner;
    }

    private static LocalDynamo settings(ExtensionContext owner) {
        return AnnotationSupport.findAnnotation(owner.getRequiredTestClass(), LocalDynamo.class)
                .orElse(Defaults.class.getAnnotation(LocalDynamo.class));
    }

    /** Carries the annotation's defaults, for classes registered with @ExtendWith alone. */
    @LocalDynamo
    private static final class Defaults {
    }

    // -- what is injected ----------------------------------------------------

    private static boolean injectable(Class<?> type) {
        return type == DynamoDbClient.class
                || type == DynamoDbStreamsClient.class
                || type == URI.class
                || type == LocalDynamoDatabase.class
                || type.getName().equals(EnhancedClients.CLASS_NAME);
    }

    private static Object valueOf(Class<?> type, LocalDynamoDatabase database) {
        if (type == DynamoDbClient.class) {
            return database.client();
        }
        if (type == DynamoDbStreamsClient.class) {
            return database.streamsClient();
        }
        if (type == URI.class) {
            return database.endpoint();
        }
        if (type == LocalDynamoDatabase.class) {
            return database;
        }
        return database.enhancedClient();
    }

    /**
     * Sets the null, non-final fields of an injectable type: the static ones when
     * {@code instance} is null, else the instance's.
     */
    private static void injectFields(Class<?> testClass, Object instance, LocalDynamoDatabase database) {
        List<Field> fields = ReflectionSupport.findFields(testClass,
                field -> injectable(field.getType())
                        && !Modifier.isFinal(field.getModifiers())
                        && Modifier.isStatic(field.getModifiers()) == (instance == null),
                HierarchyTraversalMode.TOP_DOWN);
        for (Field field : fields) {
            try {
                field.setAccessible(true);
                if (field.get(instance) == null) {
                    field.set(instance, valueOf(field.getType(), database));
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new ExtensionConfigurationException("cannot inject " + field, e);
            }
        }
    }
}
