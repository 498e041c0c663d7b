package io.quotient.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --from and --to take the times the submit column takes: a day, a time in UTC, or a time with its zone. */
class ReplayOptionsTest {

    @ParameterizedTest
    @CsvSource({
        "2017-10-05, 2017-10-05T00:00:00Z",
        "2017-10-05T10:00, 2017-10-05T10:00:00Z",
        "2017-10-05 10:00, 2017-10-05T10:00:00Z",
        "2017-10-05 10:00:30, 2017-10-05T10:00:30Z",
        "2017-10-05T10:00:00Z, 2017-10-05T10:00:00Z",
        "2017-10-05T12:00+02:00, 2017-10-05T10:00:00Z"
    })
    void aSliceBoundIsReadInTheFormsTracesWriteTimes(String written, String instant) {
        ReplayOptions options =
                ReplayOptions.parse(new String[] {"--jobs", "j.csv", "--nodes", "1", "--from", written});
        assertThat(options.fromMs()).isEqualTo(Instant.parse(instant).toEpochMilli());
    }

    @ParameterizedTest
    @CsvSource({"2017-13-01", "2017-10-05T25:00", "yesterday"})
    void aBoundThatIsNoTimeIsRefusedNamingTheOption(String written) {
        assertThatThrownBy(() -> ReplayOptions.parse(new String[] {"--jobs", "j.csv", "--nodes", "1", "--to", written}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--to must be a date (2017-10-01) or a time");
    }
}
