package io.quotient.enforcer.core;

/**
 * Who a PID is: its start time (clock ticks since boot, from {@code /proc/<pid>/stat}) and the pod
 * and container its cgroup names (both empty for host processes). PIDs are reused; the pair
 * (pid, startTicks) is not, which is why a kill re-reads this and compares before signalling.
 */
public record ProcessIdentity(int pid, long startTicks, String podUid, String containerId) {

    public ProcessIdentity {
        podUid = podUid == null ? "" : podUid;
        containerId = containerId == null ? "" : containerId;
    }

    public static ProcessIdentity host(int pid, long startTicks) {
        return new ProcessIdentity(pid, startTicks, "", "");
    }

    public boolean inPod() {
        return !podUid.isEmpty() && !containerId.isEmpty();
    }
}
