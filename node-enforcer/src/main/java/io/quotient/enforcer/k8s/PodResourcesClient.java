package io.quotient.enforcer.k8s;

import com.google.protobuf.CodedInputStream;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ClientCalls;
import io.quotient.enforcer.core.DeviceAllocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Client of the kubelet pod-resources API ({@code v1.PodResourcesLister/List}) over its unix socket,
 * typically {@code /var/lib/kubelet/pod-resources/kubelet.sock}: which devices each container got.
 */
public final class PodResourcesClient implements AutoCloseable {

    static final String SERVICE = "v1.PodResourcesLister";

    /** The request is the empty message {@code ListPodResourcesRequest {}}: zero bytes on the wire. */
    static final MethodDescriptor<ListRequest, List<DeviceAllocation>> LIST =
            MethodDescriptor.<ListRequest, List<DeviceAllocation>>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "List"))
                    .setRequestMarshaller(new MethodDescriptor.Marshaller<>() {
                        @Override
                        public InputStream stream(ListRequest value) {
                            return new ByteArrayInputStream(new byte[0]);
                        }

                        @Override
                        public ListRequest parse(InputStream stream) {
                            return ListRequest.EMPTY;
                        }
                    })
                    .setResponseMarshaller(new MethodDescriptor.Marshaller<>() {
                        @Override
                        public InputStream stream(List<DeviceAllocation> value) {
                            throw new UnsupportedOperationException("the enforcer only reads pod resources");
                        }

                        @Override
                        public List<DeviceAllocation> parse(InputStream stream) {
                            try {
                                return PodResourcesCodec.decodeList(CodedInputStream.newInstance(stream));
                            } catch (IOException e) {
                                throw new UncheckedIOException(
                                        "malformed ListPodResourcesResponse from the kubelet", e);
                            }
                        }
                    })
                    .build();

    /** {@code ListPodResourcesRequest}, which has no fields. */
    enum ListRequest {
        EMPTY
    }

    private final Path socket;
    private final Duration timeout;
    private final EventLoopGroup events;
    private final ManagedChannel channel;

    public PodResourcesClient(Path socket, Duration timeout) {
        this.socket = socket;
        this.timeout = timeout;
        this.events = new EpollEventLoopGroup(1);
        this.channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(events)
                .channelType(EpollDomainSocketChannel.class)
                // gRPC asks for TCP keep-alive, which a unix socket does not have: without this, Netty warns on every
                // connect
                .withOption(ChannelOption.SO_KEEPALIVE, null)
                .overrideAuthority("localhost")
                .usePlaintext()
                .build();
    }

    /** Every container's devices; throws {@link PodResourcesException} when the kubelet cannot be asked. */
    public List<DeviceAllocation> list() {
        try {
            return ClientCalls.blockingUnaryCall(
                    channel,
                    LIST,
                    CallOptions.DEFAULT.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS),
                    ListRequest.EMPTY);
        } catch (StatusRuntimeException | UncheckedIOException e) {
            throw new PodResourcesException(
                    "cannot list pod resources from the kubelet at " + socket + ": " + e.getMessage()
                            + "; check that the pod-resources directory is mounted and the kubelet runs",
                    e);
        }
    }

    @Override
    public void close() {
        channel.shutdownNow();
        events.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** The kubelet's pod-resources API could not be read. */
    public static final class PodResourcesException extends RuntimeException {
        PodResourcesException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
