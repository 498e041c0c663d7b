package io.quotient.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.Gang;
import io.quotient.core.model.Team;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code replicas} and {@code minReplicas} of a request (issue 12). */
class GangRequestTest {

    private static final Map<String, Team> TEAMS = Map.of("team-a", Team.of("team-a", 32));
    private final JobSpecValidator validator = new JobSpecValidator();

    private static JobRequestInput request(Integer gpus, Integer replicas, Integer minReplicas) {
        return JobRequestInput.of("team-a", "train")
                .with(GpuAsk.NONE.withCount(gpus))
                .with(new GangAsk(replicas, minReplicas));
    }

    @Test
    void replicasMakeAGangRigidUnlessAMinimumIsGiven() {
        assertThat(validator.validate(request(8, 4, null), TEAMS).gang()).isEqualTo(new Gang(4, 4));
        assertThat(validator.validate(request(8, 4, 2), TEAMS).gang()).isEqualTo(new Gang(4, 2));
        assertThat(validator.validate(request(8, null, null), TEAMS).gang()).isEqualTo(Gang.SINGLE);
    }

    @Test
    void badGangsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> validator.validate(request(8, 0, null), TEAMS))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("replicas"))
                .hasMessageContaining("one replica per node");
        assertThatThrownBy(() -> validator.validate(request(8, 4, 5), TEAMS))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("minReplicas"))
                .hasMessageContaining("use 1 to replicas (4)");
        assertThatThrownBy(() -> validator.validate(request(null, 4, null), TEAMS))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("replicas"))
                .hasMessageContaining("ask for gpu.count");
        JobRequestInput fractions = JobRequestInput.of("team-a", "train")
                .with(GpuAsk.fraction(0.5, 0.5))
                .with(new GangAsk(2, null));
        assertThatThrownBy(() -> validator.validate(fractions, TEAMS))
                .isInstanceOfSatisfying(
                        RequestException.class, e -> assertThat(e.field()).isEqualTo("replicas"))
                .hasMessageContaining("shares");
    }
}
