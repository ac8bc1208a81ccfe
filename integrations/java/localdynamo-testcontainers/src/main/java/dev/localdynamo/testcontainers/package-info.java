/**
 * The localdynamo container image under Testcontainers:
 * {@link dev.localdynamo.testcontainers.LocalDynamoContainer}.
 */
package dev.localdynamo.testcontainers;
