package io.quotient.core.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.quotient.core.model.JobId;
import io.quotient.core.usage.PodCounterReading;
import io.quotient.core.usage.PodCounters;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Utilisation per report period from the enforcers' running counters. */
class UtilisationSamplerTest {

    private static final Instant SINCE = Instant.parse("2026-12-02T09:00:00Z");
    private static final JobId JOB = new JobId("lab", "nb-0");

    private static PodCounterReading reading(String gpu, double present, double measured, double busy) {
        return new PodCounterReading("node-0", "uid-1", gpu, JOB, new PodCounters(SINCE, present, measured, busy, 0));
    }

    @Test
    void theFirstReadingCoversTheWholeCountingAndLaterOnesTheirPeriod() {
        UtilisationSampler sampler = new UtilisationSampler();
        JobUtilisation first =
                sampler.sample(List.of(reading("gpu-a", 600, 600, 300))).get(0);
        assertThat(first.utilisation()).isCloseTo(0.5, offset(1e-9));
        assertThat(first.from()).isEqualTo(SINCE);
        assertThat(first.to()).isEqualTo(SINCE.plusSeconds(600));

        JobUtilisation next =
                sampler.sample(List.of(reading("gpu-a", 630, 630, 300.3))).get(0);
        assertThat(next.utilisation()).as("0.3 busy GPU-seconds in 30 s").isCloseTo(0.01, offset(1e-9));
        assertThat(next.from()).isEqualTo(SINCE.plusSeconds(600));
    }

    @Test
    void aJobOnTwoGpusIsTheMeanOverBothAndUnmeasuredCountersGiveNoSample() {
        UtilisationSampler sampler = new UtilisationSampler();
        sampler.sample(List.of(reading("gpu-a", 60, 60, 0), reading("gpu-b", 60, 60, 0)));
        List<JobUtilisation> samples =
                sampler.sample(List.of(reading("gpu-a", 120, 120, 60), reading("gpu-b", 120, 120, 0)));
        assertThat(samples)
                .singleElement()
                .satisfies(s -> assertThat(s.utilisation()).isCloseTo(0.5, offset(1e-9)));

        assertThat(sampler.sample(List.of(reading("gpu-a", 150, 120, 60), reading("gpu-b", 150, 120, 0))))
                .as("present but not measured (MIG): no figure, never idle for it")
                .isEmpty();
    }
}
