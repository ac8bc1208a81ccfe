package localdynamo.sdk;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/** Records each HTTP attempt the SDK makes, with the status it got back. */
public final class AttemptCounter implements ExecutionInterceptor {
    private final List<Integer> statuses = new ArrayList<>();
    private int attempts;

    @Override
    public synchronized void beforeTransmission(Context.BeforeTransmission context,
                                                ExecutionAttributes attributes) {
        attempts++;
    }

    @Override
    public synchronized void afterTransmission(Context.AfterTransmission context,
                                               ExecutionAttributes attributes) {
        statuses.add(context.httpResponse().statusCode());
    }

    public synchronized int attempts() {
        return attempts;
    }

    public synchronized List<Integer> statuses() {
        return new ArrayList<>(statuses);
    }
}
