import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** A request a stand-in received, as sent on the wire. */
export type ReceivedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
};

/** A loopback HTTP server answering with `respond`; it records every request. */
export type StandIn = {
  url: string;
  requests: ReceivedRequest[];
  /** Makes the next `count` requests answer `status` with `body` (JSON). */
  failNext: (status: number, body: unknown, count?: number) => void;
  close: () => Promise<void>;
};

type Answer = { status: number; body: unknown };

/** Starts a stand-in whose normal answer `respond` computes (failures queued first). */
async function startStandIn(respond: (request: ReceivedRequest) => Answer): Promise<StandIn> {
  const requests: ReceivedRequest[] = [];
  const failures: Answer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body) as unknown;
      } catch {
        json = undefined;
      }
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        json,
      };
      requests.push(received);
      const answer = failures.shift() ?? respond(received);
      if (answer.body === null) {
        response.writeHead(answer.status);
        response.end();
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    failNext: (status, body, count = 1) => {
      for (let index = 0; index < count; index += 1) failures.push({ status, body });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * ntfy's publish endpoints: JSON to the root (`{topic, message, title, tags, click,
 * actions}`) or a body to /{topic}; answers the message envelope ntfy answers
 * (`{id, time, expires, event: "message", topic, message}`), 401 without the topic's token
 * when `token` is set, 400 (code 40009-style JSON error) for a JSON publish without a topic.
 */
export async function startNtfyStandIn(options: { token?: string } = {}): Promise<StandIn> {
  return await startStandIn((request) => {
    if (request.method !== 'POST' && request.method !== 'PUT') {
      return { status: 405, body: { code: 40500, http: 405, error: 'method not allowed' } };
    }
    if (
      options.token !== undefined &&
      request.headers.authorization !== `Bearer ${options.token}`
    ) {
      return { status: 401, body: { code: 40101, http: 401, error: 'unauthorized' } };
    }
    const json = request.json as { topic?: unknown; message?: unknown } | undefined;
    const topic = request.path === '/' ? json?.topic : request.path.slice(1);
    if (typeof topic !== 'string' || topic === '') {
      return {
        status: 400,
        body: { code: 40009, http: 400, error: 'invalid request: topic invalid' },
      };
    }
    const now = Math.floor(Date.now() / 1000);
    return {
      status: 200,
      body: {
        id: randomBytes(6).toString('base64url'),
        time: now,
        expires: now + 43_200,
        event: 'message',
        topic,
        message: request.path === '/' ? json?.message : request.body,
      },
    };
  });
}

/**
 * Discord's Execute Webhook: POST /api/webhooks/{id}/{token} with JSON `{content, embeds}`;
 * 204 without `?wait=true`, else 200 with the created message; 400 `{code: 50006}` for an
 * empty message, 404 `{code: 10015, message: "Unknown Webhook"}` for another path.
 */
export async function startDiscordStandIn(): Promise<StandIn & { webhookUrl: string }> {
  const id = String(1_200_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e9)));
  const token = randomBytes(24).toString('base64url');
  const path = `/api/webhooks/${id}/${token}`;
  const standIn = await startStandIn((request) => {
    const url = new URL(request.path, 'http://stand-in');
    if (request.method !== 'POST' || url.pathname !== path) {
      return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
    }
    const json = request.json as { content?: unknown; embeds?: unknown[] } | undefined;
    if (
      json === undefined ||
      ((typeof json.content !== 'string' || json.content === '') &&
        (json.embeds?.length ?? 0) === 0)
    ) {
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    }
    if (url.searchParams.get('wait') !== 'true') return { status: 204, body: null };
    return {
      status: 200,
      body: {
        id: String(BigInt(id) + BigInt(1 + Math.floor(Math.random() * 1e6))),
        type: 0,
        content: json.content,
        embeds: json.embeds ?? [],
        webhook_id: id,
        timestamp: new Date().toISOString(),
      },
    };
  });
  return { ...standIn, webhookUrl: `${standIn.url}${path}` };
}

/**
 * The Telegram Bot API's getChat and sendMessage at `/bot<token>/<method>` (JSON bodies):
 * `{ok: true, result}` or `{ok: false, error_code, description}` as Telegram words them.
 */
export async function startTelegramStandIn(): Promise<
  StandIn & { botToken: string; chatId: string; chatTitle: string }
> {
  const botToken = `${100_000 + Math.floor(Math.random() * 1e6)}:${randomBytes(26).toString('base64url')}`;
  const chatId = '-1001234567890';
  const chatTitle = 'Shelfwatch alerts';
  let messageId = 0;
  const standIn = await startStandIn((request) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path);
    if (match === null || match[1] !== botToken) {
      return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    }
    const json = request.json as { chat_id?: unknown; text?: unknown } | undefined;
    const isKnownChat = String(json?.chat_id) === chatId;
    if (match[2] === 'getChat' || match[2] === 'sendMessage') {
      if (!isKnownChat) {
        return {
          status: 400,
          body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
        };
      }
      const chat = { id: Number(chatId), title: chatTitle, type: 'supergroup' };
      if (match[2] === 'getChat') return { status: 200, body: { ok: true, result: chat } };
      messageId += 1;
      return {
        status: 200,
        body: {
          ok: true,
          result: {
            message_id: messageId,
            date: Math.floor(Date.now() / 1000),
            chat,
            text: json?.text,
          },
        },
      };
    }
    return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
  });
  return { ...standIn, botToken, chatId, chatTitle };
}

/** A plain HTTP sink for generic webhooks: answers 200 `{received: true}` to anything. */
export async function startWebhookSink(): Promise<StandIn> {
  return await startStandIn(() => ({ status: 200, body: { received: true } }));
}
