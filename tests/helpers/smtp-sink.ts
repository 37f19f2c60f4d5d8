import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** A message the sink accepted (answered 250 to its DATA). */
export type ReceivedEmail = {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: Buffer;
  parsed: ParsedMail;
  messageId: string | undefined;
};

/** A real SMTP server on a free loopback port that keeps what it accepts. */
export type SmtpSink = {
  url: string;
  /** Messages accepted so far, in order (duplicates included: that is what the test looks for). */
  messages: ReceivedEmail[];
  /** Messages whose client vanished before the sink answered their DATA (never accepted). */
  droppedCount: () => number;
  /** Messages received in full and waiting for `releaseHeld` before being answered. */
  heldCount: () => number;
  /** Answers every MAIL FROM with this 4xx/5xx code until called with undefined ("SMTP down"). */
  setRejectCode: (code: number | undefined) => void;
  /** While on, received messages wait unanswered, so a test can kill the client in between. */
  setHolding: (isHolding: boolean) => void;
  /** Answers the held messages of clients still connected with 250. */
  releaseHeld: () => void;
  /** Resolves once at least `count` messages were accepted; rejects after `timeoutMs`. */
  waitForMessages: (count: number, timeoutMs?: number) => Promise<ReceivedEmail[]>;
  close: () => Promise<void>;
};

type HeldMessage = { session: SMTPServerSession; accept: () => void; drop: () => void };

/** Starts the sink. Plain SMTP without auth or STARTTLS, as a local relay would be. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedEmail[] = [];
  const held: HeldMessage[] = [];
  const closedSessions = new Set<string>();
  let rejectCode: number | undefined;
  let isHolding = false;
  let dropped = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onMailFrom: (_address, _session, callback) => {
      if (rejectCode === undefined) {
        callback();
        return;
      }
      const error = Object.assign(new Error('Mail system temporarily unavailable, try later'), {
        responseCode: rejectCode,
      });
      callback(error);
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const record = async (): Promise<void> => {
          const parsed = await simpleParser(raw);
          messages.push({
            envelopeFrom:
              session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            envelopeTo: session.envelope.rcptTo.map((address) => address.address),
            raw,
            parsed,
            messageId: parsed.messageId,
          });
        };
        const accept = (): void => {
          record().then(
            () => callback(),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
        };
        if (!isHolding) {
          accept();
          return;
        }
        held.push({
          session,
          accept,
          drop: () => {
            dropped += 1;
            callback(new Error('client gone'));
          },
        });
      });
    },
    onClose: (session) => {
      closedSessions.add(session.id);
      // The client never saw a 250 for these, so the sink never took responsibility for them.
      for (const message of held.filter((candidate) => candidate.session.id === session.id)) {
        held.splice(held.indexOf(message), 1);
        message.drop();
      }
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    droppedCount: () => dropped,
    heldCount: () => held.length,
    setRejectCode: (code) => {
      rejectCode = code;
    },
    setHolding: (value) => {
      isHolding = value;
    },
    releaseHeld: () => {
      for (const message of held.splice(0)) {
        if (closedSessions.has(message.session.id)) {
          message.drop();
        } else {
          message.accept();
        }
      }
    },
    waitForMessages: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `SMTP sink got ${messages.length} of ${count} messages within ${timeoutMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return messages.slice();
    },
    close: async () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
