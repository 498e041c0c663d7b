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

    /** An option that only qualifies another, given alone, was ignored in silence; a repeated one's last value won. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--usage-window 3d|--usage-window bounds the usage that --usage-half-life remembers",
                "--seed 7|--seed seeds --add-notebooks",
                "--add-notebooks 1000|--add-notebooks must be at most 500 notebooks a working day per team",
                "--pin-models 0.5|--pin-models pins jobs to the cluster's GPU models",
                "--load 1 --load 2|option --load is given twice"
            })
    void anOptionThatWouldBeIgnoredIsRefused(String extra, String message) {
        String[] args = ("--jobs j.csv " + (extra.startsWith("--load") ? "" : "--nodes 1 ") + extra).split(" ");
        assertThatThrownBy(() -> ReplayOptions.parse(args))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
