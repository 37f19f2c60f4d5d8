import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { DEFAULT_SIMULATOR_BEHAVIOUR } from '#server/simulator/index.ts';

describe('simulator configuration', () => {
  it('polls the simulator on port 4010 by default', () => {
    const config = loadConfig({});
    expect(config.simulator).toEqual({
      port: 4010,
      seed: 1,
      isEnabled: true,
      behaviour: DEFAULT_SIMULATOR_BEHAVIOUR,
    });
    // Which shape the client asks first is the client's setting (shared/upstream), not the simulator's.
    expect(config.upstream).toMatchObject({ baseUrl: 'http://localhost:4010' });
  });

  it('follows SIMULATOR_PORT and SIMULATOR_SEED', () => {
    const config = loadConfig({ SIMULATOR_PORT: '4999', SIMULATOR_SEED: '12' });
    expect(config.simulator).toMatchObject({ port: 4999, seed: 12, isEnabled: true });
    expect(config.upstream.baseUrl).toBe('http://localhost:4999');
  });

  it('keeps the simulator when UPSTREAM_BASE_URL points at it on a loopback address', () => {
    expect(loadConfig({ UPSTREAM_BASE_URL: 'http://127.0.0.1:4010/' }).simulator.isEnabled).toBe(
      true,
    );
    expect(loadConfig({ UPSTREAM_BASE_URL: 'http://127.0.0.1:4010/' }).upstream.baseUrl).toBe(
      'http://127.0.0.1:4010',
    );
  });

  it('does not start the simulator when the real stores are polled', () => {
    const config = loadConfig({
      UPSTREAM_BASE_URL: 'https://www.apple.com',
      UPSTREAM_SHAPE: 'pickup-message',
    });
    expect(config.simulator.isEnabled).toBe(false);
    expect(config.upstream).toMatchObject({
      baseUrl: 'https://www.apple.com',
      shape: 'pickup-message',
    });
  });

  it('simulates Apple today by default: fulfillment-messages dead, 541 after 30 requests in 10 minutes for 10 minutes', () => {
    expect(DEFAULT_SIMULATOR_BEHAVIOUR).toEqual({
      fulfillmentMessages: 'dead',
      pickupMessage: 'alive',
      blockAfterRequests: 30,
      blockWindowSeconds: 600,
      blockSeconds: 600,
    });
  });

  it('follows the SIMULATOR_* behaviour variables, 0 turning the block off', () => {
    const config = loadConfig({
      SIMULATOR_FULFILLMENT_MESSAGES: 'alive',
      SIMULATOR_BLOCK_AFTER_REQUESTS: '0',
      SIMULATOR_BLOCK_WINDOW_SECONDS: '60',
      SIMULATOR_BLOCK_SECONDS: '3600',
    });
    expect(config.simulator.behaviour).toEqual({
      fulfillmentMessages: 'alive',
      pickupMessage: 'alive',
      blockAfterRequests: 0,
      blockWindowSeconds: 60,
      blockSeconds: 3600,
    });
  });

  it.each([
    ['SIMULATOR_FULFILLMENT_MESSAGES', 'off'],
    ['SIMULATOR_BLOCK_AFTER_REQUESTS', '-1'],
    ['SIMULATOR_BLOCK_AFTER_REQUESTS', '2.5'],
    ['SIMULATOR_BLOCK_WINDOW_SECONDS', '0'],
    ['SIMULATOR_BLOCK_SECONDS', 'ten'],
    ['SIMULATOR_BLOCK_SECONDS', '86401'],
  ])('names %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('names the variable when a simulator setting is invalid', () => {
    expect(() => loadConfig({ UPSTREAM_BASE_URL: 'not a url' })).toThrow(/UPSTREAM_BASE_URL/);
    expect(() => loadConfig({ UPSTREAM_SHAPE: 'json' })).toThrow(/UPSTREAM_SHAPE/);
    expect(() => loadConfig({ SIMULATOR_PORT: '70000' })).toThrow(/SIMULATOR_PORT/);
  });
});
