import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** A browser's subscription as the test plays the browser: keys to give the server, and its private half. */
export type TestBrowser = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  decrypt: (body: Buffer) => string;
};

/** A push message as the push service received it. */
export type ReceivedPush = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

/**
 * A push service on a loopback HTTPS port (web-push only speaks HTTPS), with a self-signed
 * certificate the test hands to the worker as a trusted CA. `goneEndpoints` answer 410.
 */
export type LocalPushService = {
  origin: string;
  /** Agent trusting this service's certificate. */
  agent: https.Agent;
  received: ReceivedPush[];
  goneEndpoints: Set<string>;
  /** A new browser subscription on this service. */
  createBrowser: (name: string) => TestBrowser;
  close: () => Promise<void>;
};

/** Starts the push service. */
export async function startLocalPushService(): Promise<LocalPushService> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-push-'));
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    path.join(folder, 'key.pem'),
    '-out',
    path.join(folder, 'cert.pem'),
  ]);
  const key = await readFile(path.join(folder, 'key.pem'));
  const cert = await readFile(path.join(folder, 'cert.pem'));
  await rm(folder, { recursive: true, force: true });

  const received: ReceivedPush[] = [];
  const goneEndpoints = new Set<string>();
  const server = https.createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const requestPath = request.url ?? '';
      if (goneEndpoints.has(requestPath)) {
        response.writeHead(410).end('subscription expired');
        return;
      }
      received.push({ path: requestPath, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201, { location: `${requestPath}/messages/${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `https://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const agent = new https.Agent({ ca: cert });

  return {
    origin,
    agent,
    received,
    goneEndpoints,
    createBrowser: (name) => {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        endpoint: `${origin}/push/${name}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
        decrypt: (body) => decryptAes128gcm(body, ecdh, publicKey, auth),
      };
    },
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** RFC 8291 (Web Push encryption) over RFC 8188 aes128gcm, single record: what a browser does. */
function decryptAes128gcm(
  body: Buffer,
  ecdh: ReturnType<typeof createECDH>,
  userAgentPublic: Buffer,
  auth: Buffer,
): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const sharedSecret = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), userAgentPublic, serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, auth, keyInfo, 32));
  const contentKey = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) {
    end -= 1;
  }
  // The last record's plaintext ends with the delimiter 0x02 before its zero padding.
  return padded.subarray(0, end).toString('utf8');
}
