package io.quotient.core.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request's one shape: groups are never null, and each {@code with} replaces one group only. */
class JobRequestInputTest {

    @Test
    void anAbsentGroupIsItsEmptyValue() {
        JobRequestInput input = new JobRequestInput("team-a", "train", null, null, null, null, null);
        assertThat(input.gpu()).isEqualTo(GpuAsk.NONE);
        assertThat(input.resources()).isEqualTo(Resources.NONE);
        assertThat(input.placement()).isEqualTo(Placement.ANYWHERE);
        assertThat(input.runtime()).isEqualTo(RuntimeOptions.DEFAULTS);
        assertThat(input.gang()).isEqualTo(GangAsk.SINGLE);
        assertThat(input).isEqualTo(JobRequestInput.of("team-a", "train"));
    }

    @Test
    void eachWithReplacesOneGroupAndKeepsTheOthers() {
        JobRequestInput input = JobRequestInput.of("team-a", "train")
                .with(GpuAsk.fraction(0.25, 0.5).onDevices(2))
                .with(new Resources(2000L, 4096L))
                .with(new Placement(List.of("H100")))
                .with(new RuntimeOptions(5, null, 60L))
                .with(new GangAsk(4, 2))
                .withPreemptible(false);
        assertThat(input.gpu()).isEqualTo(GpuAsk.fraction(0.25, 0.5).onDevices(2));
        assertThat(input.resources()).isEqualTo(new Resources(2000L, 4096L));
        assertThat(input.placement()).isEqualTo(new Placement(List.of("H100")));
        assertThat(input.runtime()).isEqualTo(new RuntimeOptions(5, false, 60L));
        assertThat(input.gang()).isEqualTo(new GangAsk(4, 2));
    }

    @Test
    void settingOneGpuStyleKeepsAnotherSoTheValidatorRefusesTheMix() {
        GpuAsk mixed = GpuAsk.whole(2).withFraction(new BigDecimal("0.5"), null);
        assertThat(mixed.count()).isEqualTo(2);
        assertThat(mixed.fraction()).isEqualTo(new BigDecimal("0.5"));
    }
}
