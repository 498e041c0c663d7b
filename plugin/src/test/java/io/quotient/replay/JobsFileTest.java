package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.sim.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both job formats: the Philly trace recognised by its header (lines written here, never the trace) and our own. */
class JobsFileTest {

    @TempDir
    Path dir;

    @Test
    void thePhillyHeaderIsRecognisedAndItsJobsAreWholeGpuTrainingJobsOfTheirVc() throws IOException {
        Path file = write("philly.csv", """
                timestamp,duration,num_gpus,gpu_time,cluster
                2017-10-01 08:00:05,120.0,1,120.0,6214e9
                2017-10-01 07:59:00,3600.5,16,57608.0,b436b2
                """);
        assertThat(JobsFile.isPhilly(file)).isTrue();
        List<ReplayJob> jobs = JobsFile.read(file);
        assertThat(jobs).extracting(ReplayJob::team).containsExactly("b436b2", "6214e9");
        ReplayJob big = jobs.get(0);
        assertThat(big.submitMs())
                .isEqualTo(Instant.parse("2017-10-01T07:59:00Z").toEpochMilli());
        assertThat(big.durationMs()).isEqualTo(3_600_500);
        assertThat(big.gpu()).isEqualTo(new GpuRequest.WholeGpus(16));
        assertThat(big.preemptible()).isTrue();
        assertThat(big.checkpointMs()).isEqualTo(Duration.ofMinutes(30).toMillis());
        ReplayJob gang = Gangs.formed(jobs, ClusterSize.uniform(4, 8)).get(0);
        assertThat(gang.replicas()).isEqualTo(2);
        assertThat(gang.gpu()).isEqualTo(new GpuRequest.WholeGpus(8));
    }

    @Test
    void theGeneralFormatReadsFractionsMemoryGangsKindsAndCheckpoints() throws IOException {
        Path file = write("jobs.csv", """
                name,submit,duration,team,gpus,gpu_fraction,gpu_limit_fraction,gpu_mib,cpu,memory_mib,model,replicas,kind,priority,preemptible,checkpoint_minutes,min_runtime_minutes
                nb,60,600,a,,0.25,0.5,,2,4096,A100|H100,,notebook,,,,
                train,0,3600,b,4,,,,8,65536,,2,train,3,,10,15
                infer,30,100,a,1,,,8192,1,1024,,,inference,,true,0,
                """);
        assertThat(JobsFile.isPhilly(file)).isFalse();
        List<ReplayJob> jobs = JobsFile.read(file);
        assertThat(jobs).extracting(ReplayJob::name).containsExactly("train", "infer", "nb");
        ReplayJob train = jobs.get(0);
        assertThat(train.gpu()).isEqualTo(new GpuRequest.WholeGpus(4));
        assertThat(train.replicas()).isEqualTo(2);
        assertThat(train.priority()).isEqualTo(3);
        assertThat(train.checkpointMs()).isEqualTo(600_000);
        assertThat(train.minRuntime()).isEqualTo(Duration.ofMinutes(15));
        assertThat(train.cpuMilli()).isEqualTo(8000);
        ReplayJob infer = jobs.get(1);
        assertThat(infer.gpu()).isEqualTo(new GpuRequest.Memory(8192, 8192, 1));
        assertThat(infer.preemptible()).isTrue();
        assertThat(infer.checkpointMs()).isZero();
        ReplayJob nb = jobs.get(2);
        assertThat(nb.gpu()).isEqualTo(new GpuRequest.Fraction(250, 500, 1));
        assertThat(nb.kind()).isEqualTo(JobKind.NOTEBOOK);
        assertThat(nb.preemptible()).isFalse();
        assertThat(nb.models()).containsExactlyInAnyOrder("A100", "H100");
    }

    @Test
    void aBadCellIsReportedWithItsFileLineAndColumn() throws IOException {
        Path file = write("bad.csv", """
                submit,duration,team,gpu_fraction
                0,10,a,0.5
                0,ten,a,0.5
                """);
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("bad.csv:3:2:")
                .hasMessageContaining("duration must be a number");
    }

    @Test
    void aJobNameGivenTwiceIsReportedWithBothLines() throws IOException {
        Path named = write("dup.csv", """
                name,submit,duration,team
                a-1,0,10,a
                b-1,5,10,b
                a-1,900000,10,a
                """);
        assertThatThrownBy(() -> JobsFile.read(named))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("dup.csv:4:1:")
                .hasMessageContaining("job name a-1 is already the name of the job on line 2");
        // an unnamed job is job-LINE: a job named so by hand collides with it, found by line as well
        Path generated = write("gen.csv", """
                name,submit,duration,team
                ,0,10,a
                job-1,5,10,b
                """);
        assertThatThrownBy(() -> JobsFile.read(generated)).hasMessageContaining("gen.csv:3:1:");
    }

    @Test
    void anIdleProfileIsReadAndAJobWithoutOneIsBusyAllTheTime() throws IOException {
        Path file = write("idle.csv", """
                name,submit,duration,team,gpus,kind,idle_profile
                nb,0,7200,a,1,notebook,busy:30m|idle:1.5h|2.5%:90s
                train,0,600,a,1,,
                """);
        List<ReplayJob> jobs = JobsFile.read(file);
        ReplayJob nb = jobs.get(0);
        assertThat(nb.profile().periods())
                .containsExactly(
                        new IdleProfile.Period(1_800_000, 1),
                        new IdleProfile.Period(5_400_000, 0),
                        new IdleProfile.Period(90_000, 0.025));
        assertThat(nb.spec("a").kind()).isEqualTo(JobKind.NOTEBOOK);
        ReplayJob train = jobs.get(1);
        assertThat(train.profile()).isEqualTo(IdleProfile.BUSY);
        assertThat(train.profile().given()).isFalse();
        assertThat(train.kind()).isEqualTo(JobKind.TRAIN);
    }

    @Test
    void aBadIdleProfileOrKindIsReportedWithItsLineColumnAndWhatIsExpected() throws IOException {
        for (String[] bad : new String[][] {
            {"busy:30m|nap:10m", "period 'nap:10m' is not STATE:LENGTH"},
            {"busy:30", "period 'busy:30' is not STATE:LENGTH"},
            {"120%:5m", "utilisation above 100 %"},
            {"idle:0m", "has no length"},
            {"busy:30m|", "period '' is not STATE:LENGTH"}
        }) {
            Path file =
                    write("badidle.csv", "submit,duration,team,idle_profile\n0,10,a,idle:1m\n0,10,a," + bad[0] + "\n");
            assertThatThrownBy(() -> JobsFile.read(file))
                    .as(bad[0])
                    .isInstanceOf(TraceFormatException.class)
                    .hasMessageContaining("badidle.csv:3:4:")
                    .hasMessageContaining("idle_profile: ")
                    .hasMessageContaining(bad[1]);
        }
        Path kind = write("badkind.csv", "submit,duration,team,kind\n0,10,a,jupyter\n");
        assertThatThrownBy(() -> JobsFile.read(kind))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("badkind.csv:2:4:")
                .hasMessageContaining("kind must be one of train, notebook or inference, was 'jupyter'");
    }

    @Test
    void aHeaderWithoutTheRequiredColumnsSaysWhatTheFormatNeeds() throws IOException {
        Path file = write("nohead.csv", "when,how_long\n0,10\n");
        assertThatThrownBy(() -> JobsFile.read(file))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("no column submit")
                .hasMessageContaining("submit,duration,team");
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
