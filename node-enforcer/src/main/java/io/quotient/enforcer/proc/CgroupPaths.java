package io.quotient.enforcer.proc;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the pod and container in the content of {@code /proc/<pid>/cgroup}.
 *
 * <p>Handles cgroup v1 ({@code id:controllers:path}, one line per hierarchy) and v2 ({@code 0::path});
 * the cgroupfs driver ({@code /kubepods/burstable/pod<uid>/<cid>}) and the systemd driver
 * ({@code kubepods-burstable-pod<uid_>.slice/cri-containerd-<cid>.scope}, {@code crio-}, {@code docker-});
 * and paths relative to the reader's cgroup namespace ({@code /../../kubepods-...}).
 */
public final class CgroupPaths {

    private static final String HEX = "[0-9a-f]";
    private static final Pattern POD = Pattern.compile("pod(" + HEX + "{8}[-_]" + HEX + "{4}[-_]" + HEX + "{4}[-_]"
            + HEX + "{4}[-_]" + HEX + "{12})(?:\\.slice)?$");
    private static final Pattern CONTAINER =
            Pattern.compile("^(?:cri-containerd-|crio-|docker-|containerd-)?(" + HEX + "{64})(?:\\.scope)?$");

    private CgroupPaths() {}

    /** The owner named by the first line whose path is a pod's container; empty for host processes. */
    public static Optional<CgroupOwner> owner(String cgroupFile) {
        for (String line : cgroupFile.split("\n")) {
            int second = line.indexOf(':', line.indexOf(':') + 1);
            if (second < 0) {
                continue;
            }
            Optional<CgroupOwner> owner = ownerOfPath(line.substring(second + 1).trim());
            if (owner.isPresent()) {
                return owner;
            }
        }
        return Optional.empty();
    }

    /** The owner of one cgroup path: the container segment must sit right below the pod segment. */
    static Optional<CgroupOwner> ownerOfPath(String path) {
        String[] segments = path.split("/");
        for (int i = 0; i + 1 < segments.length; i++) {
            Matcher pod = POD.matcher(segments[i]);
            if (!pod.find()) {
                continue;
            }
            Matcher container = CONTAINER.matcher(segments[i + 1]);
            if (container.matches()) {
                return Optional.of(new CgroupOwner(pod.group(1).replace('_', '-'), container.group(1)));
            }
        }
        return Optional.empty();
    }
}
