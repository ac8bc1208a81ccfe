/**
 * A JUnit 5 extension for localdynamo: put {@link dev.localdynamo.junit5.LocalDynamo} on a test
 * class.
 *
 * <p>One server runs for the whole test run (started from {@code LOCALDYNAMO_BIN}, the launcher
 * jar's binary or the {@code PATH}; or {@code LOCALDYNAMO_URL} names a running one). Every test
 * class gets a database of its own — its own access key on a server started with
 * {@code --per-key-databases} — so classes running in parallel may write the same keys and never
 * meet. The database is emptied (or given the preloaded models) before the class; what the
 * class's {@code @BeforeAll} methods write is its seed, and every test starts from it.
 */
package dev.localdynamo.junit5;
