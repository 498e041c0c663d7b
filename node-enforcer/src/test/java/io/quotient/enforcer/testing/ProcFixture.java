package io.quotient.enforcer.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A proc root for tests that overlays the real /proc: {@code <root>/<pid>/stat} links to the real
 * process's stat (so start times, and a PID's reuse, are real) while {@code <root>/<pid>/cgroup} is
 * a fixture that puts the real process into a pod's container.
 */
public final class ProcFixture {

    private final Path root;

    public ProcFixture(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    /** cgroup v2, systemd driver, containerd: the most common layout today. */
    public static String podCgroup(String podUid, String containerId) {
        return "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + podUid.replace('-', '_')
                + ".slice/cri-containerd-" + containerId + ".scope\n";
    }

    public static String hostCgroup() {
        return "0::/system.slice/ssh.service\n";
    }

    public ProcFixture map(long pid, String cgroup) {
        try {
            Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
            Files.writeString(dir.resolve("cgroup"), cgroup);
            linkStat(dir, pid);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes {@code pid} look as if another process ({@code newcomer}, started later) now had that PID:
     * what a PID reuse between sample and kill looks like to the enforcer.
     */
    public ProcFixture reuse(long pid, long newcomer) {
        try {
            Path dir = root.resolve(Long.toString(pid));
            Files.delete(dir.resolve("stat"));
            linkStat(dir, newcomer);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void linkStat(Path dir, long pid) throws IOException {
        Path stat = dir.resolve("stat");
        Files.deleteIfExists(stat);
        Files.createSymbolicLink(stat, Path.of("/proc", Long.toString(pid), "stat"));
    }
}
