package io.quotient.it.soak;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * A TCP proxy on the loopback address in front of the API server: the services' kubeconfig points here, so the
 * soak can cut their network to the API server ({@link #cut}: every open connection is reset and new ones are
 * closed at once) and restore it. Bytes are passed through untouched (TLS included: the API server's certificate
 * names 127.0.0.1, whatever the port). The same proxy stands in for the webhook Service in front of the replicas'
 * admission ports: each new connection goes to a port the supplier picks among the replicas up (none: refused).
 */
final class LoopbackProxy implements AutoCloseable {

    private final ServerSocket server;
    private final IntSupplier target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    LoopbackProxy(int targetPort) {
        this(() -> targetPort);
    }

    /** @param target the port each new connection goes to, or a negative number when none is up */
    LoopbackProxy(IntSupplier target) {
        this.target = target;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the API server proxy on the loopback address", e);
        }
        daemon("soak-proxy-accept", this::acceptLoop).start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Cuts the network: open connections are reset, new ones closed, until {@link #restore}. */
    void cut() {
        cut = true;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    void restore() {
        cut = false;
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(LoopbackProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            int port = target.getAsInt();
            if (port < 0) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
                open.add(client);
                open.add(upstream);
                daemon("soak-proxy-up", () -> pump(client, upstream)).start();
                daemon("soak-proxy-down", () -> pump(upstream, client)).start();
            } catch (IOException e) {
                closeQuietly(client); // the API server is down: the client sees a refused connection
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a cut or a closed peer: close both sides below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
