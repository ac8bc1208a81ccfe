package dev.localdynamo.launcher;

/** The binary is missing, the server did not start or stop cleanly, or an admin call failed. */
public class LocalDynamoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with a message that says what to do about it.
     *
     * @param message what went wrong
     */
    public LocalDynamoException(String message) {
        super(message);
    }

    /**
     * An error caused by another one.
     *
     * @param message what went wrong
     * @param cause the underlying failure
     */
    public LocalDynamoException(String message, Throwable cause) {
        super(message, cause);
    }
}
