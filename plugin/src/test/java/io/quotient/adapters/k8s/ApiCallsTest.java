package io.quotient.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.Test;

class ApiCallsTest {

    @Test
    void aSuccessWithTheObjectReturnsIt() {
        V1Pod pod = new V1Pod();
        assertThat(ApiCalls.expect(new KubernetesApiResponse<>(pod), "reading pod p"))
                .isSameAs(pod);
    }

    @Test
    void aSuccessWithoutTheObjectIsAFailureThatSaysSo() {
        assertThatThrownBy(() -> ApiCalls.expect(
                        new KubernetesApiResponse<V1Pod>((V1Pod) null), "updating the status of GpuJob ns/a"))
                .isInstanceOf(KubernetesCallException.class)
                .hasMessage("updating the status of GpuJob ns/a failed: the API server answered HTTP 200 without the"
                        + " object; the call is tried again on the next pass");
    }
}
