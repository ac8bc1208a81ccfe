/**
 * Starting and stopping the localdynamo server binary from Java, and its admin API.
 *
 * <p>{@link dev.localdynamo.launcher.LocalDynamoServer} runs the binary on a free loopback port;
 * {@link dev.localdynamo.launcher.AdminClient} resets databases and takes and restores
 * snapshots. Nothing here depends on the AWS SDK: any client pointed at
 * {@link dev.localdynamo.launcher.LocalDynamoServer#endpoint()} talks to the server.
 */
package dev.localdynamo.launcher;
