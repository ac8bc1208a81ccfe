package localdynamo.sdk;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one server of this JVM: started on first use and kept in
 * JUnit's root store, which closes it (SIGTERM) when the whole run ends.
 */
public final class LocalDynamoExtension implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalDynamo.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(LocalDynamo.class, key -> {
                    try {
                        return LocalDynamo.start();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, LocalDynamo.class);
    }
}
