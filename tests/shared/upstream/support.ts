// Test support for the upstream client: fixture loading and a scripted fake fetch.
import { readFileSync } from 'node:fs';
import type { FetchLike, FetchResponseLike } from '#shared/upstream/client.ts';

/** Reads a fixture file as text. */
export function readFixtureText(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

/** Reads and decodes a JSON fixture; each call returns a fresh copy safe to mutate. */
export function readFixtureJson(name: string): unknown {
  return JSON.parse(readFixtureText(name));
}

/** Builds a response with the given status, body and headers. */
export function buildResponse(
  status: number,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json;charset=utf-8' },
): FetchResponseLike {
  return new Response(body, { status, headers });
}

/** Builds a 200 JSON response from a decoded document. */
export function buildJsonResponse(document: unknown): FetchResponseLike {
  return buildResponse(200, JSON.stringify(document));
}

/** One recorded call of the fake fetch. */
export type RecordedCall = { url: string; headers: Record<string, string> };

/**
 * A fetch that answers by URL path: each handler gets the URL and returns a response or
 * throws; every call is recorded for assertions.
 */
export function createScriptedFetch(
  respond: (url: URL) => FetchResponseLike | Promise<FetchResponseLike>,
): { fetch: FetchLike; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, headers: init.headers });
    return respond(new URL(url));
  };
  return { fetch, calls };
}
