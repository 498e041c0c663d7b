package io.quotient.enforcer.testing;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.quotient.enforcer.nvml.Nvml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Drives the fake libnvidia-ml built from src/test/native/fake_nvml.c: points it at a state file and
 * replaces that file atomically (temp file + rename), as the fake re-reads it on the next call.
 */
public final class FakeNvml {

    /** The fake's test-only symbol. */
    public interface Control extends Library {
        void fakeNvmlSetStateFile(String path);
    }

    private final Path library;
    private final Path stateFile;
    /*
     * Held for as long as this fixture lives: JNA dlclose()s a library whose last proxy was garbage
     * collected, and the fake would then be unloaded and lose the state-file path set here. The next
     * load (the application's, by its default names) would get a fresh copy that answers every call
     * with NVML_ERROR_UNKNOWN.
     */
    private final Control control;

    private FakeNvml(Path library, Path stateFile) {
        this.library = library;
        this.stateFile = stateFile;
        this.control = Native.load(library.toString(), Control.class);
        control.fakeNvmlSetStateFile(stateFile.toString());
    }

    /** The full fake (NVML 11.6+ symbols), the one -Djna.library.path finds. */
    public static FakeNvml full(Path workDir) {
        return new FakeNvml(nativeDir().resolve("libnvidia-ml.so.1"), workDir.resolve("nvml-state"));
    }

    /** The fake without the _v2/_v3 symbols: a pre-11.6 driver. */
    public static FakeNvml legacy(Path workDir) {
        return new FakeNvml(nativeDir().resolve("legacy/libnvidia-ml.so.1"), workDir.resolve("nvml-legacy-state"));
    }

    public static Path nativeDir() {
        return Path.of(System.getProperty("fake.nvml.dir", "target/native")).toAbsolutePath();
    }

    public Path library() {
        return library;
    }

    public Nvml open() {
        return Nvml.open(List.of(library.toString()));
    }

    public FakeNvml write(FakeNvmlState state) {
        try {
            Path temp = Files.createTempFile(stateFile.getParent(), "nvml-state", ".tmp");
            Files.writeString(temp, state.render());
            Files.move(temp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
