// A minimal local HTTP proxy whose outgoing connections leave from a chosen loopback
// address, so a test can stand for an egress proxy (UPSTREAM_PROXIES) with its own address
// at the simulator. It tunnels CONNECT (what undici's ProxyAgent sends) and forwards plain
// absolute-URI requests; it is test support, not a product proxy.
import http from 'node:http';
import net from 'node:net';

/** A running proxy: `url` for ProxyAgent, `egressAddress` as the simulator sees it. */
export type LoopbackProxy = {
  url: string;
  egressAddress: string;
  /** Requests or tunnels opened through it so far. */
  getUseCount: () => number;
  close: () => Promise<void>;
};

/** Starts a proxy on 127.0.0.1 that connects onward from `egressAddress` (a 127.0.0.x alias). */
export async function startLoopbackProxy(egressAddress: string): Promise<LoopbackProxy> {
  const sockets = new Set<net.Socket>();
  let useCount = 0;
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const server = http.createServer((request, response) => {
    useCount += 1;
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('absolute URI expected');
      return;
    }
    const onward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers: request.headers,
        localAddress: egressAddress,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    onward.once('error', () => response.writeHead(502).end());
    request.pipe(onward);
  });

  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    useCount += 1;
    track(client);
    const [host = '', port = ''] = (request.url ?? '').split(/:(?=\d+$)/);
    const onward = net.connect({ host, port: Number(port), localAddress: egressAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      onward.write(head);
      onward.pipe(client);
      client.pipe(onward);
    });
    track(onward);
    onward.once('error', () => client.destroy());
    client.once('error', () => onward.destroy());
  });
  server.on('connection', track);

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    egressAddress,
    getUseCount: () => useCount,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
