package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.sim.TraceFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Trace files as other tools write them (spreadsheets, pandas, scripts on Windows) and as they go wrong: read as RFC
 * 4180 CSV, or refused naming file, line, column and what to do, never read into the wrong cells.
 */
class CsvInputTest {

    @TempDir
    Path dir;

    @Test
    void aByteOrderMarkAndCrlfLineEndsAreReadAsASpreadsheetWritesThem() throws IOException {
        Path file = write("excel.csv", "\uFEFFsubmit,duration,team\r\n0,10,a\r\n5,20,b\r\n");
        List<ReplayJob> jobs = JobsFile.read(file);
        assertThat(jobs).extracting(ReplayJob::team).containsExactly("a", "b");
        assertThat(jobs.get(1).durationMs()).isEqualTo(20_000);
    }

    @Test
    void aQuotedCellMayHoldACommaAndADoubledQuote() throws IOException {
        Path file = write("quoted.csv", "name,submit,duration,team\n\"job \"\"one\"\", big\",0,10,\"ml, vision\"\n");
        ReplayJob job = JobsFile.read(file).get(0);
        assertThat(job.name()).isEqualTo("job \"one\", big");
        assertThat(job.team()).isEqualTo("ml, vision");
    }

    @Test
    void aCommaInACellThatIsNotQuotedIsRefusedRatherThanShiftingTheCellsAfterIt() throws IOException {
        Path file = write("shifted.csv", "submit,duration,team\n0,10,ml,vision\n");
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("shifted.csv:2:4:")
                .hasMessageContaining("4 cells and the header 3 columns; quote a cell that holds a comma");
    }

    @Test
    void trailingEmptyCellsAreNoExtraColumns() throws IOException {
        Path file = write("trailing.csv", "submit,duration,team\n0,10,a,,\n");
        assertThat(JobsFile.read(file)).extracting(ReplayJob::team).containsExactly("a");
    }

    static Stream<Arguments> brokenRows() {
        return Stream.of(
                Arguments.of("0,10,\"ab\n", ":2:3:", "the quote opened here is not closed on its line"),
                Arguments.of("0,10,\"ab", ":2:3:", "the quote opened here is never closed"),
                Arguments.of("0,10,\"ab\"c\n", ":2:3:", "text after the closing quote"),
                Arguments.of("0,10,a\u0007b\n", ":2:3:", "control character (U+0007)"),
                Arguments.of("0,10,a\u001b[31mb\n", ":2:3:", "control character (U+001B)"),
                Arguments.of("0,1\u0000,a\n", ":2:2:", "control character (U+0000)"));
    }

    @ParameterizedTest
    @MethodSource("brokenRows")
    void aBrokenQuoteOrAControlCharacterIsRefusedWithItsLineAndColumn(String row, String where, String what)
            throws IOException {
        Path file = write("broken.csv", "submit,duration,team\n" + row);
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("broken.csv" + where)
                .hasMessageContaining(what);
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedNamingTheLine() throws IOException {
        Path file = dir.resolve("latin1.csv");
        Files.write(file, "submit,duration,team\n0,10,caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("line 2 is not UTF-8 text")
                .hasMessageContaining("save the file as UTF-8");
    }

    @Test
    void aDirectoryIsNoTrace() {
        assertThatThrownBy(() -> JobsFile.read(dir))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("is a directory");
    }

    @ParameterizedTest
    @CsvSource({
        "2017-10-01 08:00:00, 2017-10-01T08:00:00Z",
        "2017-10-01T08:00:00Z, 2017-10-01T08:00:00Z",
        "2017-10-01T10:00:00+02:00, 2017-10-01T08:00:00Z",
        "2017-10-01T08:00, 2017-10-01T08:00:00Z",
        "1506844800, 2017-10-01T08:00:00Z",
    })
    void submissionTimesAreReadInTheFormsTracesWriteThem(String submit, String instant) throws IOException {
        Path file = write("times.csv", "submit,duration,team\n" + submit + ",10,a\n");
        assertThat(JobsFile.read(file).get(0).submitMs())
                .isEqualTo(Instant.parse(instant).toEpochMilli());
    }

    @ParameterizedTest
    @CsvSource({"1e300", "NaN", "-Infinity", "200000000000"})
    void aSubmissionTimeNoClockReachesIsRefused(String submit) throws IOException {
        Path file = write("far.csv", "submit,duration,team\n" + submit + ",10,a\n");
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("far.csv:2:1:")
                .hasMessageContaining("submit must be seconds between");
    }

    /**
     * Read other than written, or counted wrong: a day the calendar lacks was moved to the day before (and counted in
     * a slice ending after it), a fraction of a GPU or replica was cut off (0.5 GPUs a CPU-only job), and a time
     * before the origin was read as a job that never started.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "timestamp,duration,num_gpus,gpu_time,cluster|2017-09-31 10:00:00,60,1,60,vc|:2:1:|'2017-09-31 10:00:00'"
                        + " is no time of the calendar",
                "timestamp,duration,num_gpus,gpu_time,cluster|2017-02-29 10:00:00,60,1,60,vc|:2:1:|no time of the calendar",
                "timestamp,duration,num_gpus,gpu_time,cluster|2017-10-01 10:00:00,60,1.5,90,vc|:2:3:|num_gpus must be a"
                        + " whole number, was '1.5'",
                "submit,duration,team,gpus|0,60,a,0.5|:2:4:|gpus must be a whole number",
                "submit,duration,team,replicas|0,60,a,1.5|:2:4:|replicas must be a whole number",
                "submit,duration,team|-1000,60,a|:2:1:|is before 1970-01-01T00:00:00Z",
                "submit,duration,team|1969-12-31T23:59:59Z,60,a|:2:1:|is before 1970-01-01T00:00:00Z"
            })
    void aTimeOrCountReadOtherThanWrittenIsRefusedWithItsLineAndColumn(
            String header, String row, String where, String what) throws IOException {
        Path file = write("odd.csv", header + "\n" + row + "\n");
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("odd.csv" + where)
                .hasMessageContaining(what);
    }

    /** The figures keep a record per hour: submissions 3,000 years apart ran the replay out of memory. */
    @Test
    void jobsSpanningMoreThanTenYearsAreRefusedNamingTheFile() throws IOException {
        Path file = write("far-apart.csv", "submit,duration,team\n0,10,a\n100000000000,10,a\n");
        List<ReplayJob> jobs = JobsFile.read(file);
        assertThatThrownBy(() -> JobsFile.requireReplayableSpan(file, jobs))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("far-apart.csv")
                .hasMessageContaining("more than the 3653 a replay covers; replay a slice of it");
        JobsFile.requireReplayableSpan(file, jobs.subList(0, 1));
    }

    @Test
    void aGeneratedClusterTooLargeToHoldIsRefusedBeforeItIsBuilt() {
        assertThatThrownBy(() -> ClusterSize.uniform(100_000_000, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 100000 nodes");
        assertThatThrownBy(() -> ClusterSize.uniform(2, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("of at most 64 GPUs");
        List<ReplayJob> jobs = List.of(
                ReplayJob.wholeGpus("a", "t", 0, 3_600_000, 8), ReplayJob.wholeGpus("b", "t", 3_600_000, 3_600_000, 8));
        assertThatThrownBy(() -> ClusterSize.forLoad(jobs, 1e-9, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raise --load");
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
