package io.quotient.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.app.cli.GenerateCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code generate} subcommand end to end on small files. */
class GenerateCommandTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final GenerateCommand command = new GenerateCommand(
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

    private Path nodes() throws IOException {
        return SmallClusterFile.write(dir);
    }

    private Path pods() throws IOException {
        StringBuilder sb = new StringBuilder("name,cpu_milli,memory_mib,num_gpu,gpu_milli\n");
        for (int i = 0; i < 40; i++) {
            int gpus = i % 10 == 0 ? 0 : i % 7 == 0 ? 4 : 1;
            int milli = gpus == 0 ? 0 : gpus > 1 || i % 3 == 0 ? 1000 : 200 + 10 * i;
            sb.append("p")
                    .append(i)
                    .append(",4000,8192,")
                    .append(gpus)
                    .append(',')
                    .append(milli)
                    .append('\n');
        }
        return Files.writeString(dir.resolve("pods.csv"), sb.toString());
    }

    private String[] args(String... more) throws IOException {
        List<String> all = new ArrayList<>(List.of("--nodes", nodes().toString(), "--pods", pods().toString()));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    @Test
    void writesTheSameFileForTheSameSeedAndSaysWhatItReached() throws Exception {
        Path first = dir.resolve("a.csv");
        Path second = dir.resolve("b.csv");
        assertThat(command.run(args("--gpu-spec", "50", "--cpu-only", "20", "--seed", "3", "--out", first.toString())))
                .as(err.toString(StandardCharsets.UTF_8))
                .isZero();
        assertThat(command.run(args("--gpu-spec=50", "--cpu-only=20", "--seed=3", "--out=" + second)))
                .isZero();
        assertThat(Files.readString(second)).isEqualTo(Files.readString(first));
        List<TracePod> pods = TraceReader.readPods(first);
        assertThat(pods.stream().filter(p -> !p.demand().needsGpu()).count() * 5)
                .isCloseTo(pods.size(), Assertions.within(5L));
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("spec50-cpu20")
                .contains("50.0 % of GPU pods with a gpu_spec");
    }

    @Test
    void printsToStdoutWithoutOut() throws Exception {
        assertThat(command.run(args("--gpushare", "60"))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,");
    }

    @Test
    void refusesBadOptionsAndImpossibleShares() throws Exception {
        assertThat(command.run(args("--gpushare", "120"))).isEqualTo(2);
        assertThat(command.run(args("--spec-models", "random"))).isEqualTo(2);
        assertThat(command.run(args("--colour", "blue"))).isEqualTo(2);
        assertThat(command.run(args("--gpu-spec", "20", "--spec-models", "trace")))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("must be a percentage from 0 to 100")
                .contains("'cluster' or 'trace'")
                .contains("unknown option '--colour'")
                .contains("no gpu_spec constraints to draw models from");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void explainsItsOptions() {
        assertThat(command.run(new String[] {"--help"})).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("--gpu-spec")
                .contains("--spec-models")
                .contains("--gpushare")
                .contains("--multi-gpu")
                .contains("--cpu-only");
    }
}
