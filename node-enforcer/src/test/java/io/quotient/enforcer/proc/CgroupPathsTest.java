package io.quotient.enforcer.proc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CgroupPathsTest {

    private static final String UID = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    private static final String CID = "4f8b1d2e3c5a6978b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
      cgroup v2, systemd, containerd         | 0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod@UID_@.slice/cri-containerd-@CID@.scope
      cgroup v2, systemd, CRI-O              | 0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod@UID_@.slice/crio-@CID@.scope
      cgroup v2, systemd, docker             | 0::/kubepods.slice/kubepods-pod@UID_@.slice/docker-@CID@.scope
      cgroup v2, cgroupfs, burstable         | 0::/kubepods/burstable/pod@UID@/@CID@
      cgroup v2, cgroupfs, guaranteed        | 0::/kubepods/pod@UID@/@CID@
      relative to own cgroup namespace       | 0::/../../kubepods-besteffort-pod@UID_@.slice/cri-containerd-@CID@.scope
      cgroup v1, cgroupfs                    | 12:memory:/kubepods/burstable/pod@UID@/@CID@
      cgroup v1, systemd, several hierarchies| 13:name=systemd:/init.scope\\n12:pids:/kubepods.slice/kubepods-pod@UID_@.slice/cri-containerd-@CID@.scope\\n11:cpu,cpuacct:/kubepods.slice/kubepods-pod@UID_@.slice/cri-containerd-@CID@.scope
      """)
    void findsPodAndContainer(String layout, String content) {
        String file = content.replace("\\n", "\n")
                .replace("@UID_@", UID.replace('-', '_'))
                .replace("@UID@", UID)
                .replace("@CID@", CID);

        assertThat(CgroupPaths.owner(file)).contains(new CgroupOwner(UID, CID));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0::/system.slice/containerd.service",
                "0::/user.slice/user-1000.slice/session-3.scope",
                "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0.slice",
                "0::/kubepods.slice/kubepods-pod0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0.slice/crio-conmon-"
                        + "4f8b1d2e3c5a6978b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4.scope",
                "0::/kubepods/burstable/pod0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/not-a-container-id",
                "garbage without colons",
                ""
            })
    void hostProcessesAndPodSlicesHaveNoOwner(String file) {
        assertThat(CgroupPaths.owner(file)).isEqualTo(Optional.empty());
    }
}
