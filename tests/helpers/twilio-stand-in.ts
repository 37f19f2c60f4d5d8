import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** A message the stand-in accepted, as Twilio would have queued it. */
export type StandInMessage = {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
};

/** An error the next create-message call answers with, in Twilio's error shape. */
export type StandInFailure = { status: number; code: number; message: string };

/**
 * Twilio's Messages REST resource on a loopback port: the real `twilio` client (pointed here
 * by TWILIO_API_BASE_URL) talks to it unchanged. It checks what Twilio checks first: the
 * path, HTTP basic auth with the account SID and token, and the form-encoded To/From/Body.
 */
export type TwilioStandIn = {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  messages: StandInMessage[];
  /** Makes the next `count` create calls fail with `failure`. */
  failNext: (failure: StandInFailure, count?: number) => void;
  close: () => Promise<void>;
};

/** Starts the stand-in with a fresh account SID and auth token. */
export async function startTwilioStandIn(): Promise<TwilioStandIn> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const messages: StandInMessage[] = [];
  const failures: StandInFailure[] = [];

  const answer = (response: http.ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const answerError = (response: http.ServerResponse, failure: StandInFailure): void =>
    answer(response, failure.status, {
      code: failure.code,
      message: failure.message,
      more_info: `https://www.twilio.com/docs/errors/${failure.code}`,
      status: failure.status,
    });

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.url ?? '');
      if (request.method !== 'POST' || match === null) {
        answerError(response, {
          status: 404,
          code: 20404,
          message: 'The requested resource was not found',
        });
        return;
      }
      const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (request.headers.authorization !== expectedAuth || match[1] !== accountSid) {
        answerError(response, { status: 401, code: 20003, message: 'Authenticate' });
        return;
      }
      if (
        !(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
      ) {
        answerError(response, {
          status: 400,
          code: 20001,
          message: 'Expected a form-encoded body',
        });
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To');
      const from = form.get('From');
      const body = form.get('Body');
      if (to === null || to === '') {
        answerError(response, {
          status: 400,
          code: 21604,
          message: "A 'To' phone number is required.",
        });
        return;
      }
      if (from === null || body === null) {
        answerError(response, {
          status: 400,
          code: 21603,
          message: "A 'From' phone number and a 'Body' are required.",
        });
        return;
      }
      const failure = failures.shift();
      if (failure !== undefined) {
        answerError(response, failure);
        return;
      }
      const sid = `SM${randomBytes(16).toString('hex')}`;
      messages.push({ sid, accountSid, to, from, body });
      const now = new Date().toUTCString().replace('GMT', '+0000');
      answer(response, 201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(Math.max(1, Math.ceil(body.length / 153))),
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        subresource_uris: {
          media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json`,
        },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    failNext: (failure, count = 1) => {
      for (let index = 0; index < count; index += 1) {
        failures.push(failure);
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
