import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test receiver got: when (ms since epoch), its headers and raw body, our answer. */
export type ReceivedWebhook = {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
};

/** How the receiver answers one request: status, extra headers, and a delay before answering (ms). */
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number };

export type TestWebhookReceiver = {
  /** `http://127.0.0.1:<port>/hook`, for `WEBHOOK_URLS`. */
  url: string;
  received: ReceivedWebhook[];
  /** Answers the `index`-th request (0-based, counted since the last reset); default 204. */
  reply: (index: number) => Reply;
  /** Forgets what was received and answers 204 again. */
  reset(): void;
  /** Requests answered 2xx. */
  delivered(): ReceivedWebhook[];
  /** Start listening (again) on the same port. */
  listen(): Promise<void>;
  /** Stop listening: the port refuses connections, as when the endpoint is down. */
  close(): Promise<void>;
};

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
}

/** A real HTTP endpoint on an ephemeral loopback port that records every request. */
export async function startWebhookReceiver(): Promise<TestWebhookReceiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = receiver.reply(receiver.received.length);
      receiver.received.push({
        at: Date.now(),
        path: request.url ?? '',
        headers: flatten(request.headers),
        body: Buffer.concat(chunks).toString('utf8'),
        status: answer.status,
      });
      setTimeout(
        () => response.writeHead(answer.status, answer.headers).end(),
        answer.delayMs ?? 0,
      );
    });
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  await listen();
  const ok = () => ({ status: 204 });
  const receiver: TestWebhookReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received: [],
    reply: ok,
    reset() {
      receiver.received = [];
      receiver.reply = ok;
    },
    delivered: () =>
      receiver.received.filter((request) => request.status >= 200 && request.status < 300),
    listen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}
