import fc from 'fast-check';
import { z } from 'zod';
import { errorBodySchema } from '#shared/api/errors.ts';

/**
 * The seed of every fuzz run: fixed so a failure repeats, FUZZ_SEED to explore others.
 * Each property derives its own seed from it and its position, printed when it fails.
 */
export const FUZZ_SEED = z.coerce.number().int().catch(20_250_908).parse(process.env.FUZZ_SEED);

/**
 * Runs `property` for `numRuns` generated inputs with a fixed seed. A failure names the
 * seed, the fast-check path and the counterexample, and how to run that seed again.
 */
export async function runFuzz<Input>(
  name: string,
  input: fc.Arbitrary<Input>,
  property: (value: Input) => Promise<void>,
  options: { numRuns: number; seedOffset: number },
): Promise<void> {
  const seed = FUZZ_SEED + options.seedOffset;
  const details = await fc.check(fc.asyncProperty(input, property), {
    numRuns: options.numRuns,
    seed,
    // Each run is a real request: shrinking gets a bounded budget, not the default.
    interruptAfterTimeLimit: 60_000,
    markInterruptAsFailure: false,
  });
  if (details.failed) {
    throw new Error(
      `Fuzzing ${name} failed (FUZZ_SEED=${FUZZ_SEED}, property seed ${seed}, path "${details.counterexamplePath ?? ''}"): ` +
        `${describeFailure(details.errorInstance)}\nCounterexample: ${fc.stringify(details.counterexample)}`,
      { cause: details.errorInstance },
    );
  }
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An address a request seems to come from: spread so per-address limits stay out of the way. */
export function clientAddressArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 1, max: 223 }),
      fc.nat(255),
      fc.nat(255),
      fc.integer({ min: 1, max: 254 }),
    )
    .map((parts) => parts.join('.'));
}

const STACK_LINE = /^\s*at .+(?:\(.+:\d+:\d+\)|:\d+:\d+)$/m;
const SOURCE_PATH = /(?:\/|\\)[\w.@-]+(?:\/|\\)[\w.@/\\-]+\.(?:[cm]?[jt]sx?)(?::\d+)?\b/;

/**
 * What in a response body reveals the server's insides: a stack frame, the checkout's path,
 * `node_modules`, a source file path. Text the request itself carried is not counted: error
 * messages may name the value they refused.
 */
export function findInternalsLeak(body: string, requestText: string): string | undefined {
  const candidates = [
    STACK_LINE.exec(body)?.[0],
    body.includes(process.cwd()) ? process.cwd() : undefined,
    body.includes('node_modules') ? 'node_modules' : undefined,
    SOURCE_PATH.exec(body)?.[0],
    /\b(?:TypeError|ReferenceError|SyntaxError|RangeError): /.exec(body)?.[0],
  ];
  return candidates.find(
    (candidate) => candidate !== undefined && !requestText.includes(candidate.trim()),
  );
}

/**
 * encodeURIComponent, but a lone surrogate (which it refuses) is sent as its UTF-8-style
 * bytes, the way a sloppy client would.
 */
export function encodeLoosely(text: string): string {
  return [...text]
    .map((character) => {
      try {
        return encodeURIComponent(character);
      } catch {
        return `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0').match(/../g)?.join('%') ?? ''}`;
      }
    })
    .join('');
}

/** Whether a content type is JSON. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType ?? '');
}

/** Problems with an error answer's body: JSON of the API's error shape with a code and reason. */
export function checkErrorBody(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `error body is not JSON: ${body.slice(0, 200)}`;
  }
  const result = errorBodySchema.safeParse(parsed);
  if (!result.success) {
    return `error body does not match errorBodySchema: ${z.prettifyError(result.error)}\n${body.slice(0, 300)}`;
  }
  if (result.data.code === '' || result.data.reason === '') {
    return `error body without a code or reason: ${body.slice(0, 300)}`;
  }
  return undefined;
}

/** Problems with a success body against its schema. */
export function checkSuccessBody(body: string, schema: z.ZodType): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `success body is not JSON: ${body.slice(0, 200)}`;
  }
  const result = schema.safeParse(parsed);
  return result.success
    ? undefined
    : `success body does not match its schema: ${z.prettifyError(result.error)}\n${body.slice(0, 300)}`;
}

/** Counts requests sent, per label, so a test can prove how much it sent. */
export class RequestTally {
  private readonly counts = new Map<string, number>();

  /** Counts one request under `label`. */
  add(label: string): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }

  /** All requests counted. */
  total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  /** Every label with its count, for a summary. */
  entries(): [string, number][] {
    return [...this.counts.entries()];
  }

  /** Requests counted under `label`. */
  count(label: string): number {
    return this.counts.get(label) ?? 0;
  }
}
