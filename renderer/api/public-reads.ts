import { HttpStatusError, UnexpectedRequestError } from './api-errors.ts';
import type { ApiSettings } from './api-context.ts';
import { unwrapHostResult } from './host-errors.ts';
import { waitForNextTask } from '../boot/wait-for-next-task.ts';

/**
 * GET of a public /v2 path (products, stores, countries, example inventory) with fetch: the
 * spec's client rules (no timeout, success for 200 to 299, HTTP failures logged and rethrown,
 * anything else the generic error) without loading axios on the pages visitors see first.
 * In the macOS app the main process answers, as it does for the axios clients.
 */
export async function getPublicJson<T>(settings: ApiSettings, path: string): Promise<T> {
  if (settings.desktop !== undefined) {
    const answer = await unwrapHostResult(settings.desktop.api.request({ method: 'GET', path }));
    if (answer.status >= 200 && answer.status < 300) return answer.body as T;
    console.error(`API GET ${path} failed`, answer.status);
    throw new HttpStatusError('GET', path, answer.status, answer.body);
  }
  const url = `${settings.apiBaseUrl.replace(/\/$/, '')}/v2${path}`;
  // Each read starts in a task of its own: the landing page's four start together, from React's
  // effects, and starting a request costs a loaded phone several milliseconds of main thread.
  await waitForNextTask();
  let response: Response;
  let body: unknown;
  try {
    response = await (settings.fetch ?? fetch)(url, { headers: { Accept: 'application/json' } });
    const text = await response.text();
    body = text === '' ? undefined : parseJson(text);
  } catch (error) {
    console.error('API request failed without an answer', error);
    throw new UnexpectedRequestError(error);
  }
  if (response.status >= 200 && response.status < 300) return body as T;
  console.error(`API GET ${path} failed`, response.status);
  throw new HttpStatusError('GET', path, response.status, body);
}

/** JSON when the text is JSON, else the text itself (as axios leaves a non-JSON answer). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
