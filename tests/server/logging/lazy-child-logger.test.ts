import { describe, expect, it, vi } from 'vitest';
import { LazyChildLogger } from '#server/logging/lazy-child-logger.ts';
import { createLogger } from '#server/logging/logger.ts';

type LogRecord = { level: number; msg: string; reqId?: string; search?: string };

/** A JSON logger at `level` writing into a list, counting the children made of it. */
function createRecordingLogger(level: string): {
  logger: ReturnType<typeof createLogger>;
  records: LogRecord[];
  countChildren: () => number;
} {
  const records: LogRecord[] = [];
  const logger = createLogger({
    level,
    format: 'json',
    destination: { write: (chunk) => records.push(JSON.parse(chunk) as LogRecord) },
  });
  // A spy keeps `this`, so children made of children still inherit their bindings.
  const makeChild = vi.spyOn(logger, 'child');
  return { logger, records, countChildren: () => makeChild.mock.calls.length };
}

describe('lazy request loggers', () => {
  it('makes no child for lines below the level', () => {
    const { logger, records, countChildren } = createRecordingLogger('info');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-1' }, {});
    lazy.trace({ req: 'incoming' }, 'incoming request');
    lazy.debug('details');
    expect(lazy.level).toBe('info');
    expect(countChildren()).toBe(0);
    expect(records).toEqual([]);
  });

  it('writes lines at the level with the request binding and the same arguments', () => {
    const { logger, records, countChildren } = createRecordingLogger('info');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-2' }, {});
    lazy.info({ search: 'abc' }, 'saved %s', 'twice');
    lazy.error('failed');
    expect(countChildren()).toBe(1);
    expect(records.map(({ level, msg, reqId, search }) => ({ level, msg, reqId, search }))).toEqual(
      [
        { level: 30, msg: 'saved twice', reqId: 'req-2', search: 'abc' },
        { level: 50, msg: 'failed', reqId: 'req-2', search: undefined },
      ],
    );
  });

  it('follows a route level given as an option, and hands children the request binding', () => {
    const { logger, records } = createRecordingLogger('info');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-3' }, { level: 'debug' });
    expect(lazy.level).toBe('debug');
    lazy.debug('now written');
    lazy.child({ search: 'xyz' }).info('from a child');
    expect(records.map((record) => [record.msg, record.reqId, record.search])).toEqual([
      ['now written', 'req-3', undefined],
      ['from a child', 'req-3', 'xyz'],
    ]);
  });

  it('writes nothing once silenced', () => {
    const { logger, records } = createRecordingLogger('info');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-4' }, {});
    lazy.level = 'silent';
    lazy.fatal('not written');
    expect(records).toEqual([]);
  });
});
