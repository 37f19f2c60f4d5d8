import { loadSiteStylesheet } from '#renderer/boot/site-stylesheet.ts';

/** Spec section 9: a lazily loaded chunk gets 120 seconds before it counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A route's code could not be fetched (network, deploy replaced the file, or timeout). */
export class ChunkLoadError extends Error {
  /** Keeps the original failure as the cause for the console. */
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ChunkLoadError';
  }
}

/** True for errors raised by loadChunk, however they reached an error boundary. */
export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof Error && error.name === 'ChunkLoadError';
}

/** Runs a dynamic import with the chunk timeout; any failure becomes a ChunkLoadError. */
export function loadChunk<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new ChunkLoadError(
          `Loading a part of the site took longer than ${timeoutMs / 1000} seconds.`,
        ),
      );
    }, timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        console.error('Chunk load failed', error);
        reject(new ChunkLoadError('A part of the site could not be loaded.', error));
      },
    );
  });
}

/**
 * A screen's code (with the chunk timeout), resolved once the site's stylesheet applies too:
 * only after the landing page, which holds it back (boot/site-stylesheet.ts), is there a wait.
 */
export function loadScreenChunk<T>(load: () => Promise<T>): Promise<T> {
  return loadChunk(() => Promise.all([load(), loadSiteStylesheet()]).then(([module]) => module));
}
