package io.quotient.it.harness;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real Kubernetes control plane (see {@link KubernetesExtension}): its test
 * and lifecycle methods may declare parameters of type {@link ControlPlane}, {@link io.kubernetes.client.openapi.ApiClient},
 * {@link TestNamespace}, {@link FakeGpuNodes} and {@link FakeKubelet}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag("kubernetes")
@ExtendWith(KubernetesExtension.class)
public @interface RealKubernetes {}
