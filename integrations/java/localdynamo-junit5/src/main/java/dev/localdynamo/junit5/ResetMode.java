package dev.localdynamo.junit5;

/** When a class's database goes back to its starting state. */
public enum ResetMode {
    /**
     * Before every test: the state the class's {@code @BeforeAll} methods left is saved as a
     * snapshot before the first test and restored before each later one (about a millisecond
     * for a small seed). The class's tests must not run concurrently with each other.
     */
    EACH_TEST,
    /** Only before the class: its tests see each other's writes, in the order they run. */
    CLASS
}
