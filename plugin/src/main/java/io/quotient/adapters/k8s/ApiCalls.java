package io.quotient.adapters.k8s;

import io.kubernetes.client.common.KubernetesType;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import java.time.Duration;
import java.util.function.Supplier;

/** Small helpers around client-java's generic API responses: status codes and errors that say what failed. */
public final class ApiCalls {

    public static final int NOT_FOUND = 404;
    public static final int CONFLICT = 409;

    private ApiCalls() {}

    /**
     * Runs a call and returns its response, turning a transport failure (API server unreachable) into a
     * {@link KubernetesUnreachableException} that names what was attempted.
     */
    public static <T extends KubernetesType> KubernetesApiResponse<T> call(
            String what, Supplier<KubernetesApiResponse<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw new KubernetesUnreachableException(
                    what + " failed: the API server could not be reached (" + e.getMessage() + ")", e);
        }
    }

    /** The response's object; fails with the API server's reason when the call did not succeed. */
    public static <T extends KubernetesType> T expect(KubernetesApiResponse<T> response, String what) {
        if (response.isSuccess() && response.getObject() != null) {
            return response.getObject();
        }
        if (response.isSuccess()) {
            // seen as an API server was being restarted: a success status with no object in the body
            throw new KubernetesCallException(
                    what + " failed: the API server answered HTTP " + response.getHttpStatusCode()
                            + " without the object; the call is tried again on the next pass",
                    response.getHttpStatusCode());
        }
        throw failure(response, what);
    }

    public static KubernetesCallException failure(KubernetesApiResponse<?> response, String what) {
        String reason = response.getStatus() == null
                ? "no reason given"
                : response.getStatus().getMessage();
        return new KubernetesCallException(
                what + " failed: HTTP " + response.getHttpStatusCode() + ": " + reason, response.getHttpStatusCode());
    }

    /** Delete options: dependents are removed in the background; pods get {@code grace} to exit (null: default). */
    public static DeleteOptions background(Duration grace) {
        DeleteOptions options = new DeleteOptions();
        options.setPropagationPolicy("Background");
        if (grace != null) {
            options.setGracePeriodSeconds(grace.toSeconds());
        }
        return options;
    }
}
