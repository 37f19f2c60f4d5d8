// Counts the SQL statements the app's connections send, by patching pg's Client once for the
// process and filtering on the connection's application_name, so the app is built with the
// product's own createDatabase and nothing else (seeding, the login provider) is counted.
import pg from 'pg';

/** A running count of statements sent by connections of one application_name. */
export type QueryCounter = { readCount: () => number; stop: () => void };

type ClientWithParameters = pg.Client & {
  connectionParameters?: { application_name?: string };
};

/** The connection string with `application_name` set, so its connections can be told apart. */
export function withApplicationName(connectionString: string, name: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** Starts counting every query (BEGIN and COMMIT included) of connections named `name`. */
export function startQueryCounter(name: string): QueryCounter {
  const prototype = pg.Client.prototype;
  // Always called through Reflect.apply with the connection as `this`, and restored by stop().
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = prototype.query;
  let count = 0;
  prototype.query = function countQuery(this: ClientWithParameters, ...args: unknown[]): unknown {
    if (this.connectionParameters?.application_name === name) count += 1;
    return Reflect.apply(original, this, args) as unknown;
  } as typeof original;
  return {
    readCount: () => count,
    stop: () => {
      prototype.query = original;
    },
  };
}
