package io.quotient.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The three-node cluster (two 4 × T4, one 8 × G2) that the subcommand tests run their small traces on. */
final class SmallClusterFile {

    private SmallClusterFile() {}

    static Path write(Path dir) throws IOException {
        return Files.writeString(
                dir.resolve("nodes.csv"),
                "sn,cpu_milli,memory_mib,gpu,model\n"
                        + "n1,32000,131072,4,T4\nn2,32000,131072,4,T4\nn3,96000,393216,8,G2\n");
    }
}
