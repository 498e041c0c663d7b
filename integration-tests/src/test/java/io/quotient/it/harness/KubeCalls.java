package io.quotient.it.harness;

import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Helpers around client-java calls that tests and the harness repeat: conflicts retried, "already gone"
 * ignored, and deletes whose answer client-java cannot parse.
 */
public final class KubeCalls {

    static final int NOT_FOUND = 404;
    static final int CONFLICT = 409;
    private static final int CONFLICT_ATTEMPTS = 10;

    private KubeCalls() {}

    /** One client-java call. */
    @FunctionalInterface
    public interface Call<T> {
        T run() throws ApiException;
    }

    /** Re-reads and retries a read-modify-write when another writer (a controller) changed the object meanwhile. */
    public static <T> T retryOnConflict(String what, Call<T> readModifyWrite) {
        for (int attempt = 1; ; attempt++) {
            try {
                return readModifyWrite.run();
            } catch (ApiException e) {
                if (e.getCode() != CONFLICT || attempt >= CONFLICT_ATTEMPTS) {
                    throw failure(what, e);
                }
            }
        }
    }

    /**
     * Runs a delete built with {@code buildCall(null)}, ignoring the body: the server answers some deletes
     * with the deleted object(s) where client-java expects a Status, which it cannot parse. An object that
     * is already gone is fine.
     */
    public static void deleteIgnoringMissing(String what, Call<okhttp3.Call> delete) {
        try (Response response = call(what, delete).execute()) {
            if (!response.isSuccessful() && response.code() != NOT_FOUND) {
                ResponseBody body = response.body();
                throw new IllegalStateException(
                        what + " failed: HTTP " + response.code() + " " + (body == null ? "" : body.string()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(what + " failed: the API server did not answer", e);
        }
    }

    /** Runs a call, turning an {@link ApiException} into an exception that names the step and the server's answer. */
    public static <T> T call(String what, Call<T> call) {
        try {
            return call.run();
        } catch (ApiException e) {
            throw failure(what, e);
        }
    }

    static IllegalStateException failure(String what, ApiException e) {
        return new IllegalStateException(what + " failed: HTTP " + e.getCode() + " " + e.getResponseBody(), e);
    }
}
