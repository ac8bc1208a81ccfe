package com.example.orders;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where AliceOrdersTest and BobOrdersTest meet: each waits here after writing the same keys,
 * so that both classes' writes are in place before either reads. Without the meeting a
 * sequential run would also pass against a single shared database that is reset between
 * classes; with it, only databases of their own give each class its own data.
 */
final class SameKeysInParallel {
    private static final CyclicBarrier BOTH_WRITTEN = new CyclicBarrier(2);

    private SameKeysInParallel() {
    }

    static void awaitTheOtherClass() throws InterruptedException, BrokenBarrierException {
        try {
            BOTH_WRITTEN.await(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the other class of the pair never wrote its keys: AliceOrdersTest and "
                    + "BobOrdersTest must run in one launch, in parallel (junit-platform.properties)", e);
        }
    }
}
