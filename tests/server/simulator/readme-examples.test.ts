import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

const README = path.resolve(import.meta.dirname, '../../../server/simulator/README.md');

/** One curl line of the README, as the request it sends. */
type CurlExample = {
  line: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  localAddress: string | undefined;
};

/** Splits a shell line into words: single quotes and plain words, as the README writes them. */
function splitWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

/** The curl commands of the README's `sh` block, continuation lines joined. */
function readCurlExamples(port: number): CurlExample[] {
  const text = readFileSync(README, 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
  const lines = block
    .replaceAll('\\\n', ' ')
    .split('\n')
    .filter((line) => line.startsWith('curl '));
  return lines.map((line) => {
    const words = splitWords(line.replaceAll(':4010', `:${port}`));
    const example: CurlExample = {
      line,
      method: 'GET',
      url: '',
      headers: {},
      body: undefined,
      localAddress: undefined,
    };
    for (let index = 1; index < words.length; index += 1) {
      const word = words[index];
      const next = () => words[(index += 1)] ?? '';
      if (word === '-X') example.method = next();
      else if (word === '-H') {
        const [name, ...value] = next().split(':');
        example.headers[name?.trim() ?? ''] = value.join(':').trim();
      } else if (word === '-d') example.body = next();
      else if (word === '-A') example.headers['user-agent'] = next();
      else if (word === '--interface') example.localAddress = next();
      else if (word === '-o' || word === '-w') next();
      else if (!word.startsWith('-')) example.url = word;
    }
    // curl's own User-Agent, sent when the line gives none.
    example.headers['user-agent'] ??= 'curl/8.5.0';
    if (!example.url.startsWith('http')) example.url = `http://${example.url}`;
    return example;
  });
}

/** Sends an example as curl would. */
async function send(example: CurlExample): Promise<Response> {
  return await fetch(example.url, {
    method: example.method,
    headers: example.headers,
    body: example.body,
    ...(example.localAddress === undefined
      ? {}
      : { dispatcher: new Agent({ connect: { localAddress: example.localAddress } }) }),
  });
}

describe('the simulator README curl examples', () => {
  let simulator: RunningUpstreamSimulator;
  let port: number;
  beforeAll(async () => {
    port = await getFreePort();
    simulator = await startUpstreamSimulator({
      port,
      seed: 1,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
  });
  afterAll(async () => simulator.close());

  it('work as written against a started simulator: none answers 503', async () => {
    const examples = readCurlExamples(port);
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const example of examples) {
      const response = await send(example);
      // The README says fulfillment-messages is dead (541); everything else answers.
      const expected = example.url.includes('/shop/fulfillment-messages') ? 541 : 200;
      expect(response.status, `${example.line}\n${await response.text()}`).toBe(expected);
    }
  });

  it('say truly that without -A curl’s own agent gets HTTP 503', async () => {
    const pickup = readCurlExamples(port).find((example) =>
      example.url.includes('/shop/retail/pickup-message'),
    );
    expect(pickup?.headers['user-agent']).toMatch(/^Mozilla\//);
    const bare = await send({ ...pickup!, headers: { 'user-agent': 'curl/8.5.0' } });
    expect(bare.status).toBe(503);
  });
});
