import { createServer, type AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server accepted: the SMTP envelope, the raw source and its parse. */
export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: Email;
};

/** An SMTP reply the server gives to every RCPT TO while set, e.g. 451 (temporary) or 550. */
export type Refusal = { code: number; message: string };

export type TestSmtpServer = {
  /** `smtp://user:secret@127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuse recipients with this reply (null: accept again). */
  refuse(refusal: Refusal | null): void;
  /** Take `delayMs` to accept each message from now on (messages being received keep theirs). */
  setDelay(delayMs: number): void;
  /** Start listening (again) on the same port. */
  listen(): Promise<void>;
  /** Stop listening: the port refuses connections, as when the mail server is down. */
  close(): Promise<void>;
};

export const SMTP_USER = 'user';
export const SMTP_PASSWORD = 'secret';

/** A free loopback port (listen on 0, read it, release it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A real SMTP server (the `smtp-server` package) in this process, requiring AUTH PLAIN/LOGIN with
 * `user`/`secret`, recording every message it accepts. Starts stopped when `listening` is false;
 * with `delayMs`, takes that long (ms) to accept each message (a slow mail server).
 */
export async function startSmtpServer({
  listening = true,
  delayMs = 0,
} = {}): Promise<TestSmtpServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let refusal: Refusal | null = null;
  let server: SMTPServer | undefined;

  const create = () =>
    new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
          callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
      },
      onRcptTo(_address, _session, callback) {
        if (refusal)
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          Promise.all([
            PostalMime.parse(raw),
            new Promise((resolve) => setTimeout(resolve, delayMs)),
          ])
            .then(([parsed]) => {
              received.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                },
                raw,
                parsed,
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });

  const handle: TestSmtpServer = {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    port,
    received,
    refuse(next) {
      refusal = next;
    },
    setDelay(next) {
      delayMs = next;
    },
    async listen() {
      server = create();
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
  if (listening) await handle.listen();
  return handle;
}
