package io.quotient.enforcer.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ServerCalls;
import io.quotient.enforcer.core.DeviceAllocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real gRPC server on a unix socket that answers like the kubelet, with the response
 * encoded by protobuf-java from descriptors of the real api.proto (including fields the client
 * skips), so the hand-written decoder is checked against protobuf's own encoder.
 */
class PodResourcesClientTest {

    @TempDir
    Path dir;

    private Server server;
    private EpollEventLoopGroup serverEvents;

    @AfterEach
    void stop() {
        if (server != null) {
            server.shutdownNow();
            serverEvents.shutdownGracefully();
        }
    }

    @Test
    void listsTheDevicesOfEveryContainer() throws Exception {
        Path socket = dir.resolve("kubelet.sock");
        AtomicReference<byte[]> request = new AtomicReference<>();
        serve(socket, kubeletAnswer(), request);

        try (PodResourcesClient client = new PodResourcesClient(socket, Duration.ofSeconds(5))) {
            List<DeviceAllocation> allocations = client.list();

            assertThat(allocations)
                    .containsExactly(
                            new DeviceAllocation(
                                    "quotient-system",
                                    "quotient-reservation-node-a-0",
                                    "pause",
                                    "nvidia.com/gpu",
                                    List.of("GPU-aaaa")),
                            new DeviceAllocation(
                                    "team-a",
                                    "trainer",
                                    "main",
                                    "nvidia.com/gpu",
                                    List.of("GPU-bbbb::1", "GPU-cccc::0")),
                            new DeviceAllocation("team-a", "trainer", "main", "example.com/nic", List.of("nic-0")));
            assertThat(request.get()).as("ListPodResourcesRequest is empty").isEmpty();
        }
    }

    @Test
    void aMissingKubeletIsAClearError() {
        try (PodResourcesClient client = new PodResourcesClient(dir.resolve("absent.sock"), Duration.ofSeconds(2))) {
            assertThatThrownBy(client::list)
                    .isInstanceOf(PodResourcesClient.PodResourcesException.class)
                    .hasMessageContaining("absent.sock")
                    .hasMessageContaining("pod-resources directory is mounted");
        }
    }

    private void serve(Path socket, byte[] response, AtomicReference<byte[]> request) throws IOException {
        MethodDescriptor<byte[], byte[]> list = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName("v1.PodResourcesLister/List")
                .setRequestMarshaller(RAW)
                .setResponseMarshaller(RAW)
                .build();
        serverEvents = new EpollEventLoopGroup(1);
        server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .bossEventLoopGroup(serverEvents)
                .workerEventLoopGroup(serverEvents)
                .channelType(EpollServerDomainSocketChannel.class)
                .addService(ServerServiceDefinition.builder("v1.PodResourcesLister")
                        .addMethod(list, ServerCalls.asyncUnaryCall((bytes, answer) -> {
                            request.set(bytes);
                            answer.onNext(response);
                            answer.onCompleted();
                        }))
                        .build())
                .build()
                .start();
    }

    private static final MethodDescriptor.Marshaller<byte[]> RAW = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** The kubelet's answer, encoded by protobuf-java through descriptors of api.proto. */
    private static byte[] kubeletAnswer() throws Exception {
        FileDescriptor file = FileDescriptor.buildFrom(
                FileDescriptorProto.newBuilder()
                        .setName("api.proto")
                        .setPackage("v1")
                        .setSyntax("proto3")
                        .addMessageType(
                                message("ListPodResourcesResponse", repeated("pod_resources", 1, ".v1.PodResources")))
                        .addMessageType(message(
                                "PodResources",
                                string("name", 1),
                                string("namespace", 2),
                                repeated("containers", 3, ".v1.ContainerResources"),
                                repeatedInt64("cpu_ids", 4)))
                        .addMessageType(message(
                                "ContainerResources",
                                string("name", 1),
                                repeated("devices", 2, ".v1.ContainerDevices"),
                                repeatedInt64("cpu_ids", 3)))
                        .addMessageType(message(
                                "ContainerDevices",
                                string("resource_name", 1),
                                FieldDescriptorProto.newBuilder()
                                        .setName("device_ids")
                                        .setNumber(2)
                                        .setType(Type.TYPE_STRING)
                                        .setLabel(Label.LABEL_REPEATED),
                                repeated("topology", 3, ".v1.TopologyInfo").setLabel(Label.LABEL_OPTIONAL)))
                        .addMessageType(message("TopologyInfo", repeatedInt64("nodes_placeholder", 1)))
                        .build(),
                new FileDescriptor[0]);
        Descriptor response = file.findMessageTypeByName("ListPodResourcesResponse");
        Descriptor pod = file.findMessageTypeByName("PodResources");
        Descriptor container = file.findMessageTypeByName("ContainerResources");
        Descriptor devices = file.findMessageTypeByName("ContainerDevices");
        Descriptor topology = file.findMessageTypeByName("TopologyInfo");

        DynamicMessage reservation = DynamicMessage.newBuilder(pod)
                .setField(pod.findFieldByName("name"), "quotient-reservation-node-a-0")
                .setField(pod.findFieldByName("namespace"), "quotient-system")
                .addRepeatedField(
                        pod.findFieldByName("containers"),
                        DynamicMessage.newBuilder(container)
                                .setField(container.findFieldByName("name"), "pause")
                                .addRepeatedField(
                                        container.findFieldByName("devices"),
                                        DynamicMessage.newBuilder(devices)
                                                .setField(devices.findFieldByName("resource_name"), "nvidia.com/gpu")
                                                .addRepeatedField(devices.findFieldByName("device_ids"), "GPU-aaaa")
                                                .setField(
                                                        devices.findFieldByName("topology"),
                                                        DynamicMessage.newBuilder(topology)
                                                                .addRepeatedField(
                                                                        topology.findFieldByName("nodes_placeholder"),
                                                                        1L)
                                                                .build())
                                                .build())
                                .addRepeatedField(container.findFieldByName("cpu_ids"), 3L)
                                .build())
                .build();
        DynamicMessage trainer = DynamicMessage.newBuilder(pod)
                .setField(pod.findFieldByName("name"), "trainer")
                .setField(pod.findFieldByName("namespace"), "team-a")
                .addRepeatedField(pod.findFieldByName("cpu_ids"), 7L)
                .addRepeatedField(
                        pod.findFieldByName("containers"),
                        DynamicMessage.newBuilder(container)
                                .setField(container.findFieldByName("name"), "main")
                                .addRepeatedField(
                                        container.findFieldByName("devices"),
                                        DynamicMessage.newBuilder(devices)
                                                .setField(devices.findFieldByName("resource_name"), "nvidia.com/gpu")
                                                .addRepeatedField(devices.findFieldByName("device_ids"), "GPU-bbbb::1")
                                                .addRepeatedField(devices.findFieldByName("device_ids"), "GPU-cccc::0")
                                                .build())
                                .addRepeatedField(
                                        container.findFieldByName("devices"),
                                        DynamicMessage.newBuilder(devices)
                                                .setField(devices.findFieldByName("resource_name"), "example.com/nic")
                                                .addRepeatedField(devices.findFieldByName("device_ids"), "nic-0")
                                                .build())
                                .build())
                .build();
        DynamicMessage idle = DynamicMessage.newBuilder(pod)
                .setField(pod.findFieldByName("name"), "web")
                .setField(pod.findFieldByName("namespace"), "default")
                .build();
        return DynamicMessage.newBuilder(response)
                .addRepeatedField(response.findFieldByName("pod_resources"), reservation)
                .addRepeatedField(response.findFieldByName("pod_resources"), trainer)
                .addRepeatedField(response.findFieldByName("pod_resources"), idle)
                .build()
                .toByteArray();
    }

    private static DescriptorProto message(String name, FieldDescriptorProto.Builder... fields) {
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(name);
        for (FieldDescriptorProto.Builder field : fields) {
            message.addField(field);
        }
        return message.build();
    }

    private static FieldDescriptorProto.Builder string(String name, int number) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(Type.TYPE_STRING)
                .setLabel(Label.LABEL_OPTIONAL);
    }

    private static FieldDescriptorProto.Builder repeated(String name, int number, String type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(Type.TYPE_MESSAGE)
                .setTypeName(type)
                .setLabel(Label.LABEL_REPEATED);
    }

    private static FieldDescriptorProto.Builder repeatedInt64(String name, int number) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(Type.TYPE_INT64)
                .setLabel(Label.LABEL_REPEATED);
    }
}
