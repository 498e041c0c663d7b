package io.quotient.enforcer.proc;

import io.quotient.enforcer.core.ProcessIdentity;
import io.quotient.enforcer.core.ProcessInspector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads who a PID is from a proc filesystem: start time from {@code <root>/<pid>/stat}, pod and container
 * from {@code <root>/<pid>/cgroup}. The root is configurable so tests can point it at fixture files
 * (and a containerised enforcer at the host's /proc).
 */
public final class ProcFs implements ProcessInspector {

    private static final Logger LOG = LoggerFactory.getLogger(ProcFs.class);
    /** starttime is field 22 of stat; counting from the field after the ")" closing the command name (field 3). */
    private static final int START_TIME_AFTER_COMMAND = 22 - 3;

    private final Path root;

    public ProcFs(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    @Override
    public Optional<ProcessIdentity> identify(int pid) {
        Path dir = root.resolve(Integer.toString(pid));
        try {
            long start = startTicks(Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII));
            Optional<CgroupOwner> owner =
                    CgroupPaths.owner(Files.readString(dir.resolve("cgroup"), StandardCharsets.UTF_8));
            return Optional.of(owner.map(o -> new ProcessIdentity(pid, start, o.podUid(), o.containerId()))
                    .orElseGet(() -> ProcessIdentity.host(pid, start)));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // the process exited
        } catch (IOException | RuntimeException e) {
            // An unreadable entry is treated as gone: the enforcer must not act on a process it cannot identify.
            LOG.warn("Cannot identify pid {} under {}: {}; leaving it alone", pid, root, e.toString());
            return Optional.empty();
        }
    }

    /** The start time in the stat line; the command name may hold spaces and parentheses, hence the last ")". */
    static long startTicks(String stat) {
        String afterCommand = stat.substring(stat.lastIndexOf(')') + 2);
        String[] fields = afterCommand.trim().split(" ");
        if (fields.length <= START_TIME_AFTER_COMMAND) {
            throw new IllegalArgumentException("stat has " + fields.length
                    + " fields after the command name, expected > " + START_TIME_AFTER_COMMAND);
        }
        return Long.parseLong(fields[START_TIME_AFTER_COMMAND]);
    }
}
