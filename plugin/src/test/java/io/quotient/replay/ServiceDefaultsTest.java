package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.app.IdleProperties;
import io.quotient.app.QuotientProperties;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** The replay's quotient runs at the service's defaults: the constants here must follow QuotientProperties'. */
class ServiceDefaultsTest {

    private static String defaultOf(Class<?> record, String component) {
        for (RecordComponent c : record.getRecordComponents()) {
            if (c.getName().equals(component)) {
                return c.getAnnotation(DefaultValue.class).value()[0];
            }
        }
        throw new AssertionError(record.getSimpleName() + " has no component " + component);
    }

    private static Duration duration(String text) {
        assertThat(text).endsWith("s");
        return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
    }

    @Test
    void passScheduleIsTheServicesDefaultSchedules() {
        Class<?> schedules = QuotientProperties.Schedules.class;
        assertThat(PassSchedule.SERVICE.requeue()).isEqualTo(duration(defaultOf(schedules, "requeueInterval")));
        assertThat(PassSchedule.SERVICE.reclaim()).isEqualTo(duration(defaultOf(schedules, "reclaimInterval")));
        assertThat(defaultOf(schedules, "defragmentCron")).isEqualTo("0 0 3 * * ?");
        assertThat(PassSchedule.SERVICE.defragmentAt()).isEqualTo(LocalTime.of(3, 0));
        assertThat(PassSchedule.SERVICE.defragmentShare())
                .isEqualTo(Double.parseDouble(defaultOf(schedules, "defragmentMaxMovedShare")));
    }

    @Test
    void quotientIsTheServicesDefaultSchedulingConfiguration() {
        Class<?> scheduling = QuotientProperties.Scheduling.class;
        assertThat(QuotientDefault.PLACEMENT).isEqualTo(defaultOf(scheduling, "placementPolicy"));
        assertThat(QuotientDefault.SEED).isEqualTo(Long.parseLong(defaultOf(scheduling, "seed")));
        assertThat(QuotientDefault.FAIR_SHARE_MIN_GAIN_GPUS)
                .isEqualTo(Double.parseDouble(defaultOf(scheduling, "fairShareMinGainGpus")));
        assertThat(QuotientDefault.MAX_MOVES_PER_DECISION)
                .isEqualTo(Integer.parseInt(defaultOf(scheduling, "maxMovesPerDecision")));
    }

    @Test
    void theIdlePassRunsAtTheServicesDefaultInterval() {
        assertThat(IdleReplay.INTERVAL).isEqualTo(duration(defaultOf(IdleProperties.class, "interval")));
    }

    @Test
    void nextTicksFollowTheSchedulesFromTheOrigin() {
        assertThat(PassSchedule.SERVICE.nextTick(1000, 1000)).isEqualTo(1000);
        assertThat(PassSchedule.SERVICE.nextTick(1000, 1001)).isEqualTo(6000);
        long day = 86_400_000L;
        assertThat(PassSchedule.SERVICE.nextDefragment(10 * day)).isEqualTo(10 * day + 3 * 3_600_000L);
        assertThat(PassSchedule.SERVICE.nextDefragment(10 * day + 3 * 3_600_000L))
                .isEqualTo(11 * day + 3 * 3_600_000L);
        assertThat(PassSchedule.SERVICE.withoutDefragmentation().nextDefragment(0))
                .isEqualTo(Long.MAX_VALUE);
    }
}
