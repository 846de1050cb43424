// The console's sign-in page timed for an operator's address and a stranger's, with a mail relay
// that takes a second to accept a message: the page must answer both alike, before any mail.
import { SMTPServer } from 'smtp-server';
import { parseForm } from './enquiries.mjs';

/** The operator's address the bench site is started with (ADMIN_EMAILS). */
export const BENCH_OPERATOR = 'bench-admin@nirmaya.example';

/**
 * A local SMTP relay (no TLS, any login) that takes `delayMs` to accept each message, counting
 * them; `url` is for SMTP_URL.
 */
export async function startSlowRelay(delayMs = 1_000) {
  let accepted = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          accepted += 1;
          callback();
        }, delayMs),
      );
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted: () => accepted,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * Posts the sign-in form (as a browser without JavaScript does) `rounds` times for the operator
 * and as many for strangers, alternating, each from its own client address, and returns the
 * median time to the page's answer for each (ms).
 */
export async function measureSignIn(baseUrl, { rounds = 15 } = {}) {
  const times = { operator: [], stranger: [] };
  const answers = new Set();
  for (let n = 0; n < rounds * 2; n++) {
    const who = n % 2 ? 'stranger' : 'operator';
    const client = `10.200.${n >> 8}.${n & 255}`;
    const page = await fetch(`${baseUrl}/admin/sign-in`, {
      headers: { 'x-forwarded-for': client },
    });
    const body = new FormData();
    for (const { name, value } of parseForm(await page.text())) body.append(name, value ?? '');
    body.set('email', who === 'operator' ? BENCH_OPERATOR : `stranger.${n}@elsewhere.example`);
    const t0 = performance.now();
    const response = await fetch(`${baseUrl}/admin/sign-in`, {
      method: 'POST',
      body,
      headers: { origin: baseUrl, 'x-forwarded-for': client },
      redirect: 'manual',
    });
    await response.arrayBuffer();
    times[who].push(performance.now() - t0);
    answers.add(`${response.status} ${response.headers.get('location')}`);
  }
  return {
    rounds,
    operatorMedianMs: median(times.operator),
    strangerMedianMs: median(times.stranger),
    answers: [...answers],
  };
}
