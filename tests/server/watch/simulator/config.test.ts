import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';

describe('simulator configuration', () => {
  it('polls the simulator on port 4010 by default, with the fulfillment-messages shape', () => {
    const config = loadConfig({});
    expect(config.simulator).toEqual({ port: 4010, seed: 1, isEnabled: true });
    expect(config.upstream).toEqual({
      baseUrl: 'http://localhost:4010',
      shape: 'fulfillment-messages',
    });
  });

  it('follows SIMULATOR_PORT and SIMULATOR_SEED', () => {
    const config = loadConfig({ SIMULATOR_PORT: '4999', SIMULATOR_SEED: '12' });
    expect(config.simulator).toEqual({ port: 4999, seed: 12, isEnabled: true });
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
    expect(config.upstream).toEqual({ baseUrl: 'https://www.apple.com', shape: 'pickup-message' });
  });

  it('names the variable when a simulator setting is invalid', () => {
    expect(() => loadConfig({ UPSTREAM_BASE_URL: 'not a url' })).toThrow(/UPSTREAM_BASE_URL/);
    expect(() => loadConfig({ UPSTREAM_SHAPE: 'json' })).toThrow(/UPSTREAM_SHAPE/);
    expect(() => loadConfig({ SIMULATOR_PORT: '70000' })).toThrow(/SIMULATOR_PORT/);
  });
});
