import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { createLogger, resolveLogFormat } from '#server/logging/logger.ts';

/** A destination that keeps what the logger wrote. */
function collectLines(): { write: (chunk: string) => void; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write: (chunk) => lines.push(...chunk.split('\n').filter((line) => line !== '')),
  };
}

describe('the server logger', () => {
  it('is pretty in a terminal and JSON lines otherwise, unless LOG_FORMAT says which', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes one short readable line per entry at a terminal: time, level, component, message', () => {
    const destination = collectLines();
    const logger = createLogger({
      level: 'info',
      destination,
      isTerminal: true,
      isColorized: false,
    });
    logger.child({ component: 'watch' }).info({ polled: 3 }, 'something changed');
    logger.debug('below the level');
    expect(destination.lines).toHaveLength(1);
    expect(destination.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: watch: something changed$/);
  });

  it('writes JSON lines with the structured fields when not at a terminal', () => {
    const destination = collectLines();
    const logger = createLogger({ level: 'info', destination, isTerminal: false });
    logger.child({ component: 'watch' }).warn({ failed: 2 }, 'requests failed');
    expect(destination.lines).toHaveLength(1);
    expect(JSON.parse(destination.lines[0])).toMatchObject({
      level: 40,
      component: 'watch',
      failed: 2,
      msg: 'requests failed',
    });
  });

  it('drops warnings, and only warnings, while the process says it is stopping', () => {
    const destination = collectLines();
    let isStopping = false;
    const logger = createLogger({
      level: 'info',
      destination,
      isTerminal: false,
      isStopping: () => isStopping,
    });
    const child = logger.child({ component: 'alerts' });
    isStopping = true;
    child.warn('connection lost');
    child.error('shutdown step failed');
    logger.info('Stopped.');
    expect(destination.lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'shutdown step failed',
      'Stopped.',
    ]);
  });

  it('reads LOG_FORMAT from the environment, auto by default, and refuses other values', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: '' }).logFormat).toBe('auto');
    expect(() => loadConfig({ LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT/);
  });
});
