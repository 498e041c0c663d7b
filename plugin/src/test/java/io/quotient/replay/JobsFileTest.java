package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.core.model.GpuRequest;
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
