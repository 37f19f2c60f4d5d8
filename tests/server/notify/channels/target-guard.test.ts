import { describe, expect, it } from 'vitest';
import { postJson } from '#server/notify/channels/channel-http.ts';
import {
  checkTargetAddress,
  checkTargetUrl,
  createTargetAgent,
  isPublicAddress,
  TargetRefusedError,
} from '#server/notify/channels/target-guard.ts';
import { startWebhookSink } from '#tests/helpers/channel-stand-ins.ts';

const STRICT = { allowPrivateTargets: false };

describe('channel target guard', () => {
  it('tells public addresses from loopback, private, link-local and reserved ones', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '151.101.1.1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses http, credentials, localhost and private literals unless the development switch is on', () => {
    const refusals = [
      'http://example.com/hook',
      'https://user:pass@example.com/hook',
      'https://localhost/hook',
      'https://printer.local/hook',
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest/meta-data',
    ];
    for (const url of refusals) {
      expect(() => checkTargetUrl(url, 'url', STRICT), url).toThrow(TargetRefusedError);
    }
    expect(checkTargetUrl('https://hooks.example.com/x', 'url', STRICT).hostname).toBe(
      'hooks.example.com',
    );
    expect(
      checkTargetUrl('http://127.0.0.1:8080/x', 'url', { allowPrivateTargets: true }).port,
    ).toBe('8080');
  });

  it('refuses names that do not resolve when the channel is created', async () => {
    const refusal = await checkTargetAddress(
      'https://no-such-host.invalid/x',
      'server_url',
      STRICT,
    ).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TargetRefusedError);
    expect((refusal as TargetRefusedError).field).toBe('server_url');
    expect((refusal as TargetRefusedError).message).toContain('resolve');
  });

  it('checks the resolved address again on every send (DNS rebinding)', async () => {
    const sink = await startWebhookSink();
    const agent = await createTargetAgent(STRICT, 2_000);
    try {
      const port = new URL(sink.url).port;
      // The address check is passed (as a name that resolved publicly at creation would);
      // the lookup made for the connection itself finds loopback and refuses it.
      const url = `https://localhost:${port}/hook`;
      await expect(
        postJson(
          { agent, timeoutMs: 2_000, policy: { allowPrivateTargets: true } },
          { url, body: '{}', isUserTarget: true, receiver: 'The webhook' },
        ),
      ).rejects.toMatchObject({ kind: 'permanent', httpStatus: null });
      expect(sink.requests).toHaveLength(0);
    } finally {
      await agent.close();
      await sink.close();
    }
  });
});
