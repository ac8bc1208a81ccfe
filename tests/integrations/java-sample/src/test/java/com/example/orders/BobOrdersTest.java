package com.example.orders;

import dev.localdynamo.junit5.LocalDynamo;

/**
 * One of a pair with AliceOrdersTest: the same table and keys, written at the same time, each
 * class reading back only its own (SameKeysOrdersTest).
 */
@LocalDynamo(models = false)
class BobOrdersTest extends SameKeysOrdersTest {
    BobOrdersTest() {
        super("bob");
    }
}
