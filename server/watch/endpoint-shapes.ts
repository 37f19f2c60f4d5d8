import type { Db } from '#server/db/database.ts';
import {
  findCountryEndpoint,
  saveCountryEndpoint,
  type CountryEndpointRow,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  chooseEndpointShape,
  createEndpointMemory,
  rememberAnswer,
  rememberBlock,
  type EndpointMemory,
  type EndpointShape,
} from '#shared/upstream/index.ts';

/** A country's endpoint memory as read for one request. */
export type LoadedEndpointMemory = {
  countryCode: string;
  preferred: EndpointShape;
  memory: EndpointMemory;
  /** The shape to ask now. */
  choose: (now: number) => { shape: EndpointShape; isProbe: boolean };
};

function fromRow(row: CountryEndpointRow): EndpointMemory {
  return {
    shape: row.shape as EndpointShape,
    reason: row.reason,
    switchedAt: row.switched_at.getTime(),
    suspectShape: (row.suspect_shape as EndpointShape | null) ?? null,
    suspectSince: row.suspect_since?.getTime() ?? null,
    otherProbedAt: row.other_probed_at?.getTime() ?? null,
  };
}

function toRow(countryCode: string, memory: EndpointMemory): CountryEndpointRow {
  return {
    country_code: countryCode,
    shape: memory.shape,
    reason: memory.reason,
    switched_at: new Date(memory.switchedAt),
    suspect_shape: memory.suspectShape,
    suspect_since: memory.suspectSince === null ? null : new Date(memory.suspectSince),
    other_probed_at: memory.otherProbedAt === null ? null : new Date(memory.otherProbedAt),
  };
}

/** Reads a country's memory (the preferred shape when nothing happened yet). */
export async function loadEndpointMemory(
  db: Db,
  countryCode: string,
  preferred: EndpointShape,
  now: number,
): Promise<LoadedEndpointMemory> {
  const row = await findCountryEndpoint(db, countryCode);
  const memory = row === undefined ? createEndpointMemory(preferred, now) : fromRow(row);
  return {
    countryCode,
    preferred,
    memory,
    choose: (at) => chooseEndpointShape(memory, preferred, at),
  };
}

async function saveIfChanged(
  db: Db,
  loaded: LoadedEndpointMemory,
  next: EndpointMemory,
): Promise<void> {
  if (JSON.stringify(next) === JSON.stringify(loaded.memory)) return;
  await saveCountryEndpoint(db, toRow(loaded.countryCode, next));
}

/** Remembers a readable answer on `asked` (a probe that answers switches the country). */
export async function noteAnswer(
  db: Db,
  loaded: LoadedEndpointMemory,
  asked: EndpointShape,
  now: number,
): Promise<void> {
  await saveIfChanged(db, loaded, rememberAnswer(loaded.memory, asked, now));
}

/** Remembers a block on `asked`. */
export async function noteBlock(
  db: Db,
  loaded: LoadedEndpointMemory,
  asked: EndpointShape,
  httpStatus: number | undefined,
  now: number,
  isOtherAddressAnswering: boolean,
): Promise<void> {
  await saveIfChanged(
    db,
    loaded,
    rememberBlock(loaded.memory, asked, httpStatus, now, isOtherAddressAnswering),
  );
}
