// Enquiry submission rate: the real contact form posted the way a browser without JavaScript does.

const TOKEN_MIN_AGE_MS = 3_100; // the server refuses forms submitted within 3 s of rendering

const visitor = (n) => ({
  firstName: 'Bench',
  lastName: `Visitor ${n}`,
  email: `bench.${Date.now().toString(36)}.${n}@hospital.example`,
  organization: 'Benchmark Hospital',
  subject: 'Benchmark enquiry',
  message: 'An enquiry posted by npm run bench to measure the submission rate.',
});

/** `value` with the five character references React writes in HTML decoded. */
export const decode = (value) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The hidden inputs of the contact form in `html` (React's server action reference, the signed
 * form token) and the names of its other inputs, as a browser would submit them.
 */
export function parseForm(html) {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error('no <form> on /contact-us');
  const fields = [];
  for (const [tag] of form.matchAll(/<(?:input|textarea)\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (!name) continue;
    const hidden = /\btype="hidden"/.test(tag);
    fields.push({
      name: decode(name),
      value: hidden ? decode(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '') : null,
    });
  }
  return fields;
}

/** A distinct client address per submission (the server honours X-Forwarded-For with TRUST_PROXY). */
const address = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

async function pool(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Loads the form `count` times (each load issues a fresh signed token), waits until the tokens are
 * old enough, then posts all forms with `concurrency` parallel clients and times that phase.
 */
export async function measureEnquiries(baseUrl, { count, concurrency = 8 }) {
  const forms = new Array(count);
  const started = Date.now();
  await pool(count, concurrency, async (n) => {
    const response = await fetch(`${baseUrl}/contact-us`, {
      headers: { 'x-forwarded-for': address(n + 1) },
    });
    forms[n] = parseForm(await response.text());
  });
  const formsPerSecond = count / ((Date.now() - started) / 1000);
  const wait = started + TOKEN_MIN_AGE_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));

  const latencies = [];
  let accepted = 0;
  const refused = {};
  const postStarted = Date.now();
  await pool(count, concurrency, async (n) => {
    const body = new FormData();
    const values = visitor(n);
    for (const { name, value } of forms[n]) body.append(name, value ?? values[name] ?? '');
    const t0 = performance.now();
    const response = await fetch(`${baseUrl}/contact-us`, {
      method: 'POST',
      body,
      headers: { origin: baseUrl, 'x-forwarded-for': address(n + 1), accept: 'text/html' },
    });
    const html = await response.text();
    latencies.push(performance.now() - t0);
    if (response.ok && html.includes('data-testid="enquiry-reference"')) accepted += 1;
    else {
      const key =
        `${response.status} ${/role="status"[^>]*>([^<]{0,80})/.exec(html)?.[1] ?? ''}`.trim();
      refused[key] = (refused[key] ?? 0) + 1;
    }
  });
  const seconds = (Date.now() - postStarted) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    posted: count,
    accepted,
    refused,
    enquiriesPerSecond: accepted / seconds,
    formLoadsPerSecond: formsPerSecond,
    latencyP50Ms: latencies[Math.floor(latencies.length * 0.5)] ?? Number.NaN,
    latencyP99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
  };
}
