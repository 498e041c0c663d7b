package io.quotient.enforcer.proc;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.enforcer.core.ProcessIdentity;
import io.quotient.enforcer.core.ProcessSignaller.Result;
import io.quotient.enforcer.testing.ChildProcesses;
import io.quotient.enforcer.testing.ProcFixture;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdentityCheckingSignallerTest {

    private static final String UID = "11111111-2222-3333-4444-555555555555";
    private static final String CID = "b".repeat(64);

    @TempDir
    Path root;

    private final ChildProcesses children = new ChildProcesses();

    @AfterEach
    void cleanUp() {
        children.close();
    }

    @Test
    void signalsTheProcessTheDecisionWasAbout() throws Exception {
        Process victim = children.sleeper();
        ProcFs procFs = new ProcFs(new ProcFixture(root)
                .map(victim.pid(), ProcFixture.podCgroup(UID, CID))
                .root());
        ProcessIdentity sampled = procFs.identify((int) victim.pid()).orElseThrow();

        assertThat(new IdentityCheckingSignaller(procFs).terminate(sampled)).isEqualTo(Result.SIGNALLED);
        assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(new IdentityCheckingSignaller(procFs).terminate(sampled)).isEqualTo(Result.GONE);
    }

    @Test
    void leavesAProcessAloneThatTookThePidAfterTheSample() throws Exception {
        Process original = children.sleeper();
        ProcFixture fixture = new ProcFixture(root).map(original.pid(), ProcFixture.podCgroup(UID, CID));
        ProcFs procFs = new ProcFs(root);
        ProcessIdentity sampled = procFs.identify((int) original.pid()).orElseThrow();
        Thread.sleep(20); // a later process has a later start time (clock ticks of 10 ms)
        Process newcomer = children.sleeper();
        fixture.reuse(original.pid(), newcomer.pid());

        assertThat(new IdentityCheckingSignaller(procFs).kill(sampled)).isEqualTo(Result.IDENTITY_CHANGED);
        assertThat(original.isAlive()).isTrue();
        assertThat(newcomer.isAlive()).isTrue();
    }

    @Test
    void leavesAProcessAloneThatMovedToAnotherContainer() throws Exception {
        Process process = children.sleeper();
        ProcFixture fixture = new ProcFixture(root).map(process.pid(), ProcFixture.podCgroup(UID, CID));
        ProcFs procFs = new ProcFs(root);
        ProcessIdentity sampled = procFs.identify((int) process.pid()).orElseThrow();
        fixture.map(process.pid(), ProcFixture.podCgroup(UID, "c".repeat(64)));

        assertThat(new IdentityCheckingSignaller(procFs).kill(sampled)).isEqualTo(Result.IDENTITY_CHANGED);
        assertThat(process.isAlive()).isTrue();
    }
}
