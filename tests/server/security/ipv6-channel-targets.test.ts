import http from 'node:http';
import type { LookupAddress } from 'node:dns';
import { Agent as UndiciAgent, type Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '#shared/api/errors.ts';
import { postJson } from '#server/notify/channels/channel-http.ts';
import {
  checkTargetAddress,
  checkTargetUrl,
  createTargetAgent,
  isPublicAddress,
  TargetRefusedError,
  type ResolveHost,
} from '#server/notify/channels/target-guard.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startWebhookSink, type StandIn } from '#tests/helpers/channel-stand-ins.ts';
import {
  buildLiteralUrl,
  PROBE_ADDRESSES,
  PUBLIC_ADDRESSES,
  type ProbeAddress,
} from './probe-inputs.ts';

// Issue 43, item 1: the IPv6 forms of private addresses (and 192.88.99.0/24) are refused when a
// channel is created and when it sends, written literally and behind a name.

const STRICT = { allowPrivateTargets: false };
/** postJson's own URL check passed, as for a name that resolved publicly when it was added. */
const URL_CHECK_PASSED = { allowPrivateTargets: true };

/** A resolver answering `address` for every name (a DNS answer the probe controls). */
function resolveTo(address: string): ResolveHost {
  const family = address.includes(':') ? 6 : 4;
  return () => Promise.resolve([{ address, family } satisfies LookupAddress]);
}

const named = (probe: ProbeAddress): string =>
  `${probe.address} (${probe.range}, ${probe.reaches})`;

describe('IPv6 and relay addresses as channel targets', () => {
  it.each(PROBE_ADDRESSES.map((probe) => [named(probe), probe] as const))(
    'judges %s not public',
    (_name, probe) => {
      expect(isPublicAddress(probe.address)).toBe(false);
    },
  );

  it('keeps public addresses in the same forms public', () => {
    for (const address of PUBLIC_ADDRESSES) expect(isPublicAddress(address), address).toBe(true);
  });

  it('reads [::127.0.0.1] as [::7f00:1] and refuses it', () => {
    const written = 'https://[::127.0.0.1]/hook';
    expect(new URL(written).hostname).toBe('[::7f00:1]');
    expect(() => checkTargetUrl(written, 'url', STRICT)).toThrow(TargetRefusedError);
  });

  it.each(PROBE_ADDRESSES.map((probe) => [named(probe), probe] as const))(
    'refuses %s written literally when a channel is added',
    async (_name, probe) => {
      const refusal = await checkTargetAddress(buildLiteralUrl(probe.address), 'url', STRICT).catch(
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(TargetRefusedError);
      expect((refusal as TargetRefusedError).message).toMatch(/private or local/);
    },
  );

  it.each(PROBE_ADDRESSES.map((probe) => [named(probe), probe] as const))(
    'refuses a name resolving to %s when a channel is added',
    async (_name, probe) => {
      const policy = { ...STRICT, resolveHost: resolveTo(probe.address) };
      const refusal = await checkTargetAddress(
        'https://hooks.probe.example/hook',
        'url',
        policy,
      ).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(TargetRefusedError);
      expect((refusal as TargetRefusedError).message).toBe(
        'resolves to a private or local address',
      );
    },
  );

  it('accepts a name resolving to a public address in each form', async () => {
    for (const address of PUBLIC_ADDRESSES) {
      const policy = { ...STRICT, resolveHost: resolveTo(address) };
      const url = await checkTargetAddress('https://hooks.probe.example/hook', 'url', policy);
      expect(url.hostname, address).toBe('hooks.probe.example');
    }
  });
});

describe('the connection itself', () => {
  let sink: StandIn;
  let sinkPort: string;
  const agents: Agent[] = [];

  beforeAll(async () => {
    sink = await startWebhookSink();
    sinkPort = new URL(sink.url).port;
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await sink.close();
  });

  /** An agent whose sockets look names up with `resolveHost` and check nothing. */
  function createUnguardedAgent(resolveHost: ResolveHost): Agent {
    return new UndiciAgent({
      connect: {
        lookup: (hostname, options, callback) => {
          void resolveHost(hostname).then((answers) => {
            const first = answers[0];
            if (options.all === true) callback(null, answers);
            else callback(null, first?.address ?? '', first?.family ?? 4);
          });
        },
      },
    });
  }

  async function send(url: string, resolveHost: ResolveHost, isGuarded = true) {
    const agent = isGuarded
      ? await createTargetAgent({ ...STRICT, resolveHost }, 1_000)
      : createUnguardedAgent(resolveHost);
    agents.push(agent);
    return await postJson(
      { agent, timeoutMs: 1_000, policy: URL_CHECK_PASSED },
      { url, body: '{}', isUserTarget: true, receiver: 'The webhook' },
    ).catch((error: unknown) => error);
  }

  it('reaches the loopback sink through ::ffff:127.0.0.1 when unguarded, so the guarded runs below can fail', async () => {
    const before = sink.requests.length;
    const answer = await send(
      `http://rebound.probe.example:${sinkPort}/hook`,
      resolveTo('::ffff:127.0.0.1'),
      false,
    );
    expect(answer).toMatchObject({ status: 200 });
    expect(sink.requests.length).toBe(before + 1);
  });

  it('refuses to connect to a name that resolves to ::ffff:127.0.0.1 at send time (DNS rebinding)', async () => {
    const before = sink.requests.length;
    const refusal = await send(
      `http://rebound.probe.example:${sinkPort}/hook`,
      resolveTo('::ffff:127.0.0.1'),
    );
    expect(refusal).toMatchObject({ kind: 'permanent', httpStatus: null });
    expect(String((refusal as Error).message)).toMatch(/private or local/);
    expect(sink.requests.length).toBe(before);
  });

  it('refuses to connect to the literal [::ffff:127.0.0.1] even when the URL check was passed', async () => {
    const before = sink.requests.length;
    const refusal = await send(`http://[::ffff:127.0.0.1]:${sinkPort}/hook`, () =>
      Promise.reject(new Error('a literal is never looked up')),
    );
    expect(refusal).toMatchObject({ kind: 'permanent', httpStatus: null });
    expect(String((refusal as Error).message)).toMatch(/is a private or local address/);
    expect(sink.requests.length).toBe(before);
  });

  it.each(PROBE_ADDRESSES.map((probe) => [named(probe), probe] as const))(
    'refuses to connect to %s, behind a name and written literally',
    async (_name, probe) => {
      const behindName = await send(
        `http://probe.example:${sinkPort}/hook`,
        resolveTo(probe.address),
      );
      expect(behindName).toMatchObject({ kind: 'permanent', httpStatus: null });
      expect(String((behindName as Error).message)).toMatch(/resolves to a private or local/);
      const literal = await send(
        buildLiteralUrl(probe.address, Number(sinkPort)).replace('https:', 'http:'),
        resolveTo(probe.address),
      );
      expect(literal).toMatchObject({ kind: 'permanent', httpStatus: null });
      expect(String((literal as Error).message)).toMatch(/is a private or local address/);
    },
  );

  it('lets a name resolving to a public address through to the connection attempt', async () => {
    const attempt = await send('http://public.probe.example:9/hook', resolveTo('64:ff9b::808:808'));
    // Whatever the network does with it, the guard did not refuse it.
    expect(String((attempt as Error).message)).not.toMatch(/private or local/);
  });

  it('does not follow a redirect to a private address', async () => {
    const inside = await startWebhookSink();
    const redirecting = http.createServer((_request, response) => {
      response.writeHead(302, { location: `${inside.url}/metadata` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const address = redirecting.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const answer = await send(`http://127.0.0.1:${port}/hook`, resolveTo('127.0.0.1'), false);
      expect(answer).toMatchObject({ status: 302 });
      expect(inside.requests).toHaveLength(0);
    } finally {
      redirecting.close();
      await inside.close();
    }
  });
});

describe('POST /v2/account/channels', () => {
  let api: ApiHarness;
  let owner: TestUser;
  beforeAll(async () => {
    api = await startApiHarness();
    owner = await api.createUser('probe', 'best');
  });
  afterAll(async () => api.close());

  it.each(PROBE_ADDRESSES.map((probe) => [named(probe), probe] as const))(
    'answers 400 naming the field for %s, for a webhook and an ntfy server',
    async (_name, probe) => {
      const url = buildLiteralUrl(probe.address);
      for (const [body, field] of [
        [{ kind: 'webhook', url }, 'url'],
        [{ kind: 'ntfy', server_url: url, topic: 'probe' }, 'server_url'],
      ] as const) {
        const response = await api.call({
          method: 'POST',
          url: '/v2/account/channels',
          as: owner,
          body,
        });
        expect(response.statusCode, url).toBe(400);
        expect(errorBodySchema.parse(response.json()).field).toBe(field);
      }
    },
  );
});
