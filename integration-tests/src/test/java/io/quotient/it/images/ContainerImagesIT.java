package io.quotient.it.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OCI archives that the build writes for the service and the node enforcer (docs/operations.md, "Container
 * images"): their config (entrypoint, non-root user, labels, the NVIDIA toolkit's variables), their content (the module's jar, a
 * Java runtime, glibc), and that each starts from its own root filesystem as a container runtime would start it
 * (chroot, the image's entrypoint, user and environment): the CLI answers, and the enforcer reads NVML through a
 * {@code libnvidia-ml.so.1} placed where the NVIDIA container toolkit injects it (the test build's fake one).
 * Needs no cluster.
 */
class ContainerImagesIT {

    private static final Path SERVICE_ARCHIVE =
            Path.of(System.getProperty("quotient.it.serviceImage", "../plugin/target/quotient-image.tar"));
    private static final Path ENFORCER_ARCHIVE = Path.of(System.getProperty(
            "quotient.it.enforcerImage", "../node-enforcer/target/quotient-node-enforcer-image.tar"));
    private static final Path FAKE_NVML =
            Path.of(System.getProperty("quotient.it.fakeNvml", "../node-enforcer/target/native/libnvidia-ml.so.1"));
    private static final String ARCH_LIBS = "/usr/lib/x86_64-linux-gnu/";

    @TempDir
    static Path work;

    private static OciImage service;
    private static OciImage enforcer;

    @BeforeAll
    static void unpack() throws Exception {
        service = OciImage.unpack(SERVICE_ARCHIVE, work.resolve("service"));
        enforcer = OciImage.unpack(ENFORCER_ARCHIVE, work.resolve("enforcer"));
    }

    @Test
    void bothAreOciImagesOfANonRootUserWithAJavaEntrypointAndLabels() {
        for (OciImage image : List.of(service, enforcer)) {
            assertThat(image.mediaTypes())
                    .as(image.archive().toString())
                    .isEqualTo("application/vnd.oci.image.manifest.v1+json application/vnd.oci.image.config.v1+json");
            assertThat(image.user()).isEqualTo("10001:10001");
            assertThat(image.entrypoint()).startsWith("/opt/java/bin/java").contains("-cp", "@/app/jib-classpath-file");
            assertThat(image.labels())
                    .containsKeys(
                            "org.opencontainers.image.title",
                            "org.opencontainers.image.version",
                            "org.opencontainers.image.source",
                            "org.opencontainers.image.description");
            assertThat(image.file("/etc/passwd")).content().contains("quotient:x:10001:10001:");
            assertThat(image.file("/opt/java/bin/java")).isExecutable();
            assertThat(image.file("/opt/java/release")).content().contains("JAVA_VERSION=\"17");
            assertThat(image.file("/lib64/ld-linux-x86-64.so.2")).isExecutable();
        }
        assertThat(service.entrypoint()).endsWith("io.quotient.app.cli.QuotientCli");
        assertThat(service.labels()).containsEntry("org.opencontainers.image.title", "quotient");
        assertThat(enforcer.entrypoint()).endsWith("io.quotient.enforcer.app.NodeEnforcerApplication");
        assertThat(enforcer.labels()).containsEntry("org.opencontainers.image.title", "quotient-node-enforcer");
    }

    @Test
    void eachCarriesItsModulesJarAndLibraries() throws IOException {
        assertThat(jars(service, "/app/classpath")).singleElement().asString().startsWith("quotient-plugin-");
        assertThat(jars(service, "/app/libs"))
                .anyMatch(j -> j.startsWith("client-java-"))
                .anyMatch(j -> j.startsWith("spring-boot-"));
        assertThat(jars(enforcer, "/app/classpath")).singleElement().asString().startsWith("quotient-node-enforcer-");
        assertThat(jars(enforcer, "/app/libs")).anyMatch(j -> j.startsWith("jna-"));
    }

    @Test
    void theEnforcerImageIsReadyForTheNvidiaContainerToolkit() {
        // the toolkit injects libnvidia-ml.so.1 for these settings; it links glibc, which the image must bring
        assertThat(enforcer.env())
                .containsEntry("NVIDIA_VISIBLE_DEVICES", "all")
                .containsEntry("NVIDIA_DRIVER_CAPABILITIES", "utility");
        for (String lib : List.of("libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1")) {
            assertThat(enforcer.file(ARCH_LIBS + lib)).as(lib).isRegularFile();
        }
        // the toolkit's hook runs ldconfig on the container's root, which reads this file
        assertThat(enforcer.file("/etc/ld.so.conf")).content().contains(ARCH_LIBS.replaceAll("/$", ""));
    }

    @Test
    void theServiceImageRunsItsEntrypointAsItsUser() throws Exception {
        Process p = inContainer(service, List.of("--help")).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(output).contains("serve", "simulate", "inspect");
        assertThat(p.exitValue()).as(output).isZero();
    }

    @Test
    void theEnforcerImageReadsNvmlThroughAnInjectedLibrary() throws Exception {
        // what the toolkit does at container start: mount the driver's library and refresh the loader's cache
        Files.copy(FAKE_NVML, enforcer.file(ARCH_LIBS + "libnvidia-ml.so.1"));
        OciImage.run(List.of("/sbin/ldconfig", "-r", enforcer.rootfs().toString()));
        Files.writeString(
                enforcer.file("/tmp/nvml-state"),
                "driver 550.54.15\n"
                        + "device 0 85899345920 GPU-11111111-2222-3333-4444-555555555555 NVIDIA A100-SXM4-80GB\n");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder builder = inContainer(
                        enforcer,
                        List.of(
                                "--quotient.enforcer.kubernetes.enabled=false",
                                "--quotient.enforcer.dry-run=true",
                                "--server.port=" + port))
                .redirectOutput(work.resolve("enforcer.log").toFile());
        builder.environment().put("FAKE_NVML_STATE", "/tmp/nvml-state");
        Process p = builder.start();
        try {
            String readiness = awaitReady(port, p);
            assertThat(readiness).contains("\"nvml\":{\"status\":\"UP\"");
            assertThat(get(port, "/actuator/prometheus")).contains("quotient_enforcer_nvml_ready 1.0");
        } finally {
            p.destroy();
            p.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /**
     * The image's entrypoint with these arguments, in a chroot of its root filesystem, as its user (as root here;
     * in a user namespace as its own root otherwise), with only the image's environment.
     */
    private static ProcessBuilder inContainer(OciImage image, List<String> args) {
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of(
                    "/usr/sbin/chroot",
                    "--userspec=" + image.user(),
                    image.rootfs().toString()));
        } else {
            command.addAll(List.of(
                    "/usr/bin/unshare", "-r", "/usr/sbin/chroot", image.rootfs().toString()));
        }
        command.addAll(image.entrypoint());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(image.env());
        return builder;
    }

    private static String awaitReady(int port, Process p) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        String last = "";
        while (Instant.now().isBefore(deadline) && p.isAlive()) {
            try {
                last = get(port, "/actuator/health/readiness");
                if (last.contains("\"status\":\"UP\",\"components\"")) {
                    return last;
                }
            } catch (IOException starting) {
                last = starting.toString();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the enforcer in its image never became ready (" + last + "); its log: "
                + Files.readString(work.resolve("enforcer.log")));
    }

    private static String get(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static List<String> jars(OciImage image, String dir) throws IOException {
        try (var files = Files.list(image.file(dir))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".jar"))
                    .sorted()
                    .toList();
        }
    }
}
