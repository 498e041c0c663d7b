package io.quotient.adapters.k8s.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/** The StatefulSet of a waiting pod is found by the pod's name and nudged on its own metadata, never its template. */
class StatefulSetRetryTest {

    @Test
    void aPodNamedWithAnOrdinalBelongsToTheSetOfThatPrefix() {
        assertThat(StatefulSetRetry.statefulSetOf("nb-0")).hasValue("nb");
        assertThat(StatefulSetRetry.statefulSetOf("my-notebook-12")).hasValue("my-notebook");
        assertThat(StatefulSetRetry.statefulSetOf("bare")).isEmpty();
        assertThat(StatefulSetRetry.statefulSetOf("train-x")).isEmpty();
    }

    @Test
    void theNudgeAnnotatesTheStatefulSetItselfSoItsPodsAreNotRolled() {
        assertThat(StatefulSetRetry.patch("2026-01-01T00:00:00Z")).isEqualTo(JsonParser.parseString("""
                {"metadata": {"annotations": {"quotient.io/placed-at": "2026-01-01T00:00:00Z"}}}"""));
    }
}
