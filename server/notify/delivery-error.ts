import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * How a failed send should be treated: `transient` is retried with backoff, `permanent`
 * fails the row at once, `opted-out` means the carrier says the recipient sent STOP.
 */
export type DeliveryErrorKind = 'transient' | 'permanent' | 'opted-out';

/** A channel's failure, classified so the worker knows whether to retry. */
export class DeliveryError extends Error {
  readonly kind: DeliveryErrorKind;

  constructor(kind: DeliveryErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DeliveryError';
    this.kind = kind;
  }
}

/** Anything unclassified (network resets, timeouts, bugs) is retried: losing an alert is worse. */
export function classifyDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) {
    return error;
  }
  return new DeliveryError('transient', error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

/** Writes `data` to `file` atomically (temp file + rename), so a crash never leaves half a message. */
export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}
