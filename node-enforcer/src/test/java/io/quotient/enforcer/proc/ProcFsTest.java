package io.quotient.enforcer.proc;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.enforcer.core.ProcessIdentity;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.ProcFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {

    private static final String UID = "11111111-2222-3333-4444-555555555555";
    private static final String CID = "a".repeat(64);

    @TempDir
    Path root;

    @Test
    void startTimeIsField22EvenWhenTheCommandHasSpacesAndParentheses() {
        String stat = "4242 (my (weird) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 "
                + "2000000 300 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0";

        assertThat(ProcFs.startTicks(stat)).isEqualTo(987654L);
    }

    @Test
    void identifiesARealProcessPutIntoAPodByItsCgroupFile() throws Exception {
        try (ChildProcesses children = new ChildProcesses()) {
            Process child = children.sleeper();
            new ProcFixture(root).map(child.pid(), ProcFixture.podCgroup(UID, CID));
            long realStart = ProcFs.startTicks(Files.readString(Path.of("/proc", Long.toString(child.pid()), "stat")));

            assertThat(new ProcFs(root).identify((int) child.pid()))
                    .contains(new ProcessIdentity((int) child.pid(), realStart, UID, CID));
        }
    }

    @Test
    void theRealProcOfTheJvmIsAHostProcessOrAContainerOfItsOwn() {
        int self = (int) ProcessHandle.current().pid();

        ProcessIdentity identity = new ProcFs(Path.of("/proc")).identify(self).orElseThrow();

        assertThat(identity.pid()).isEqualTo(self);
        assertThat(identity.startTicks()).isPositive();
    }

    @Test
    void aPidWithoutProcEntryIsGone() {
        assertThat(new ProcFs(root).identify(999_999)).isEmpty();
    }
}
