import { chromium, type Browser } from '@playwright/test';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactFields,
  contactLimits,
  fieldLength,
  formTokenField,
  type ContactField,
} from '@/lib/contact-fields';
import { contactSchema, fieldErrors } from '@/lib/contact-schema';
import { ACTION_BODY_LIMIT_BYTES } from '@/lib/http/request-limits';
import { proofField } from '@/lib/proof-of-work';
import { issueFormToken } from '@/server/platform/security/form-token';
import { leads } from '@/server/features/contact/schema';
import { openTestDatabase, type TestDatabase } from '@test/databases';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/chromium.mjs';
import { formBody, loadForm, type LoadedForm } from '@test/contact-form';
import { until } from '@test/enquiry';
import { backdateFormToken } from '@test/form-token';
import { startProductionServer, type ProductionServer } from '@test/next-server';
import { expectRefusalPage, Histogram } from '@test/refusal';

/**
 * Bad requests: property-based fuzz of what a client can post to a real `next start` of the build
 * (fast-check, seeded: `FUZZ_SEED` to replay; the seed is printed on failure). Field values from
 * every Unicode plane, control characters and lengths around each limit in code points and in
 * UTF-16 units; mangled action ids; malformed multipart; oversized bodies with Content-Length and
 * chunked; wrong content types and methods. No answer may be 5xx, every stored row must satisfy
 * the length rule, each refusal must be the page in the site's layout, and the server must still
 * answer `/`. Posts "with JavaScript" have the shape Chromium gives them (captured first from the
 * real form) and must get the enquiry stored or the field errors the schema gives their values.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 15_015);
const RUNS = 400;
const SECRET = 'issue-15-fuzz-secret-of-at-least-32-characters';

const postgres = process.env.TEST_DATABASE_URL;
let server: ProductionServer;
let database: TestDatabase;
let form: LoadedForm;
let actionId: string;
let browser: Browser;
/** The contact form as Chromium posts it with JavaScript (captured in `beforeAll`). */
let jsPost: CapturedPost;
let client = 0;
const histogram = new Histogram();

/** A distinct client address per request: the rate limit (5 per 10 min) must not interfere. */
const nextClient = () => {
  client += 1;
  return { 'x-forwarded-for': `10.15.${(client >> 8) & 255}.${client & 255}` };
};

describe.skipIf(!postgres)('bad requests to the contact form (fuzz, PostgreSQL)', () => {
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    server = await startProductionServer({
      env: { DATABASE_URL: database.url, FORM_SECRET: SECRET, TRUST_PROXY: '1', SMTP_URL: '' },
    });
    form = await loadForm(server.url);
    const descriptor = form.fields.find(({ name }) => name === '$ACTION_1:0')?.value;
    actionId = (JSON.parse(descriptor ?? '{}') as { id: string }).id;
    expect(actionId).toMatch(/^[0-9a-f]{40,}$/);
    browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
    jsPost = await captureJsPost(server.url);
    console.log(
      `the contact form as Chromium posts it with JavaScript: headers ${JSON.stringify(jsPost.headers)}; ` +
        `fields ${jsPost.entries.map(([name]) => name).join(', ')}; arguments (${jsPost.argsField}) ${jsPost.args}`,
    );
    expect(jsPost.headers['next-action']).toBe(actionId);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.dispose();
  });

  it('answers every fuzzed post below 500, with the refusal page where refused', async () => {
    const stored = async () => (await database.db.select().from(leads)).length;
    await fc.assert(
      fc.asyncProperty(postCase(actionId), async (request) => {
        const { kind, detail, init, expected, check } = await request();
        const response = await fetch(`${server.url}/contact-us`, {
          method: 'POST',
          body: init.body as BodyInit,
          ...(init.duplex ? { duplex: init.duplex } : {}),
          headers: { origin: server.url, accept: 'text/html', ...nextClient(), ...init.headers },
        } as RequestInit);
        const html = await response.text();
        const accepted =
          html.includes('data-testid="enquiry-reference"') || /"status":"accepted"/.test(html);
        histogram.add(
          kind + (response.status === 200 ? (accepted ? ':accepted' : ':refused') : ''),
          response.status,
        );
        expect(response.status, `${kind} ${detail ?? ''}`).toBeLessThan(500);
        expect(expected, `${kind} ${detail ?? ''}: ${response.status}`).toContain(response.status);
        if (response.status !== 200)
          expectRefusalPage(response.status, html, response.headers.get('content-type'));
        await check?.(html);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    const rows = await database.db.select().from(leads);
    const invalid = rows.filter((row) => {
      const values = { ...row, message: row.message ?? '' };
      return (
        !contactSchema.safeParse(values).success ||
        contactFields.some((field) => fieldLength(values[field]) > contactLimits[field])
      );
    });
    console.log(
      `contact-form fuzz (seed ${SEED}, ${RUNS} runs): answers by kind and status\n${histogram}\n` +
        `stored rows: ${rows.length} (${rows.filter((row) => row.verdict === 'spam').length} quarantined), invalid stored: ${invalid.length}`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBe(await stored());
    expect(invalid).toEqual([]);
    expect(histogram.serverErrors()).toBe(0);

    const home = await fetch(server.url);
    expect(home.status).toBe(200);
    // One warn line per refusal, never a stack trace.
    expect(server.output()).not.toMatch(/^\s+at /m);
    expect(server.output()).not.toMatch(/"level":50/);
  });

  it('in Chromium: a field at exactly its limit (emoji, Devanagari) is stored byte for byte; one more is refused, what was typed kept', async () => {
    // 20 × (1 emoji + 4 Devanagari code points) = 100 characters, 120 UTF-16 units.
    const firstName = '😀क्षि'.repeat(20);
    // 625 × 8 code points = 5,000 characters, 5,625 UTF-16 units.
    const message = '🩺नमस्ते,'.repeat(625);
    expect([fieldLength(firstName), fieldLength(message)]).toEqual([
      contactLimits.firstName,
      contactLimits.message,
    ]);
    const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': '10.99.0.1' } });
    try {
      await page.goto(`${server.url}/contact-us`);
      const field = page.getByLabel('First Name');
      const count = page.locator('#contact-firstName-count');
      // The live count proves the form is hydrated (it is React's).
      await until(async () => {
        await field.fill(`${firstName}न`);
        return count.isVisible();
      });
      const countText = await count.textContent();
      console.log(`live count one over the limit: "${countText}"`);
      expect(countText).toBe('101 of 100 characters: 1 too many');
      await page.getByLabel('Last Name').fill('Rao');
      await page.getByLabel('Email').fill('asha@hospital.example');
      await page.getByLabel('Organization').fill('City General Hospital');
      await page.getByLabel('Subject').fill('Limits');
      await page.getByRole('textbox', { name: /^Message/ }).fill(message);
      const before = (await database.db.select().from(leads)).length;
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.locator('#contact-firstName-error').waitFor();
      expect(await page.locator('#contact-firstName-error').textContent()).toBe(
        'First Name must be at most 100 characters.',
      );
      expect(await page.getByRole('status').textContent()).toContain(
        'what you typed is still in the form',
      );
      expect(await field.inputValue()).toBe(`${firstName}न`);
      expect(await page.getByRole('textbox', { name: /^Message/ }).inputValue()).toBe(message);
      expect((await database.db.select().from(leads)).length).toBe(before);

      await field.fill(firstName);
      await backdateFormToken(page, SECRET);
      await page.getByRole('button', { name: 'Submit' }).click();
      const reference = page.getByTestId('enquiry-reference');
      await reference.waitFor({ timeout: 20_000 });
      const [row] = await database.db
        .select()
        .from(leads)
        .where(eq(leads.reference, (await reference.textContent())!.trim()));
      expect(Buffer.from(row!.firstName)).toEqual(Buffer.from(firstName));
      expect(Buffer.from(row!.message ?? '')).toEqual(Buffer.from(message));
      console.log(
        `stored at the limit: first name ${fieldLength(row!.firstName)} characters (${row!.firstName.length} UTF-16 units, ${Buffer.byteLength(row!.firstName)} bytes), message ${fieldLength(row!.message ?? '')} characters (${Buffer.byteLength(row!.message ?? '')} bytes)`,
      );
    } finally {
      await page.close();
    }
  });
});

/** A server-action post as Chromium sent it. */
type CapturedPost = {
  /** Its React and Next.js headers (`accept` and `next-*`), by lower-case name. */
  headers: Record<string, string>;
  /** Its multipart entries, in order. */
  entries: Array<[string, string]>;
  /** The entry holding the action's arguments (the one that names the form, `"$K…"`). */
  argsField: string;
  args: string;
  /** What React put before each name of the form's own fields (where `firstName` went). */
  prefix: string;
};

/**
 * Submits the real contact form with JavaScript in Chromium (the `usual` values, so it is stored)
 * and returns the server-action request it sent, read back from the wire.
 * @throws when no server-action post is sent or no confirmation follows.
 */
async function captureJsPost(url: string): Promise<CapturedPost> {
  const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': '10.99.0.2' } });
  try {
    await page.goto(`${url}/contact-us`, { waitUntil: 'networkidle' });
    for (const [name, value] of Object.entries(usual))
      await page.locator(`[name="${name}"]`).fill(value);
    await backdateFormToken(page, SECRET);
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && request.headers()['next-action'] !== undefined,
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    const request = await posted;
    await page.getByTestId('enquiry-reference').waitFor({ timeout: 20_000 });
    const allHeaders = await request.allHeaders();
    const body = await new Response(new Uint8Array(request.postDataBuffer()!), {
      headers: { 'content-type': allHeaders['content-type']! },
    }).formData();
    const entries = [...body].map(([name, value]): [string, string] => [name, String(value)]);
    const [argsField, args] = entries.find(([, value]) => /"\$K[0-9a-f]+"/.test(value))!;
    const [firstName] = entries.find(([name]) => name.endsWith('firstName'))!;
    return {
      headers: Object.fromEntries(
        Object.entries(allHeaders).filter(
          ([name]) => name === 'accept' || name.startsWith('next-'),
        ),
      ),
      entries,
      argsField,
      args,
      prefix: firstName.slice(0, -'firstName'.length),
    };
  } finally {
    await page.close();
  }
}

/** One fuzzed post: what it is, how to send it and the statuses it may get. */
type PostRequest = () => Promise<{
  kind: string;
  /** What was fuzzed, for the failure message. */
  detail?: string;
  /** The body: FormData, bytes or a stream (sent chunked). */
  init: { body: unknown; headers?: Record<string, string>; duplex?: 'half' };
  expected: number[];
  /** Further assertions on the answer's body. */
  check?: (body: string) => Promise<void>;
}>;

/** One character of a kind a visitor (or a script) may type. */
const character = fc.oneof(
  fc.constantFrom('a', 'Z', '0', ' ', '-', "'", 'é', 'ß'),
  fc.constantFrom('😀', '🩺', '𝔸', '𠀀', '👩‍⚕️'),
  fc.constantFrom('क', '्', 'ष', 'ि', 'न', 'म', 'स', 'त', 'े', 'ं'),
  fc.constantFrom('\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028', '\r\n', '\n', '\t'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** A value with a length around `limit`: in code points, or cut at a count of UTF-16 units. */
function aroundLimit(limit: number): fc.Arbitrary<string> {
  return fc
    .record({
      unit: fc.constantFrom('points', 'units'),
      delta: fc.integer({ min: -2, max: 2 }),
      script: fc.constantFrom('a', '😀', 'क', 'कि😀'),
    })
    .map(({ unit, delta, script }) => {
      const points = Array.from(script.repeat(limit + 2));
      const text = points.slice(0, limit + delta).join('');
      return unit === 'points' ? text : text.slice(0, limit + delta);
    });
}

const usual: Record<ContactField, string> = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@hospital.example',
  organization: 'City General Hospital',
  subject: 'Demo',
  message: 'Please call me.',
};

/** A field's value: usually a plausible one, else anything from the characters above. */
const fieldValue = (field: ContactField) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(usual[field]) },
    { weight: 3, arbitrary: aroundLimit(contactLimits[field]) },
    { weight: 1, arbitrary: fc.array(character, { maxLength: 40 }).map((c) => c.join('')) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 120 }) },
  );

const fieldValues = fc.record(
  Object.fromEntries(contactFields.map((field) => [field, fieldValue(field)])) as Record<
    ContactField,
    fc.Arbitrary<string>
  >,
);

/** A usable form token (signed with the server's secret, old enough to be accepted). */
const token = () => issueFormToken(SECRET, Date.now() - 5_000);

/** The form's body as the browser posts it without JavaScript. */
const mpaBody = (values: Record<string, string>) =>
  formBody(form, { ...values, formToken: token() });

/**
 * The form's body as Chromium posts it with JavaScript (`jsPost`, with its headers): `values` in
 * the form's fields, a fresh token, no proof of work (the clock check applies instead), `args` (by
 * default as captured) in React's arguments entry, everything else as captured.
 */
function fetchBody(values: Record<string, string>, args = jsPost.args): FormData {
  const body = new FormData();
  for (const [name, value] of jsPost.entries) {
    const field = name.startsWith(jsPost.prefix) ? name.slice(jsPost.prefix.length) : '';
    if (name === jsPost.argsField) body.append(name, args);
    else if (field === formTokenField) body.append(name, token());
    else if (field !== proofField) body.append(name, values[field] ?? value);
  }
  return body;
}

/** `values` as the server reads them from a multipart body (well-formed, line breaks as CRLF). */
const asPosted = (values: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      value.toWellFormed().replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n'),
    ]),
  );

/**
 * Asserts what the server answered a post of `values` with JavaScript (the RSC payload `rsc`): for
 * values the schema accepts, the confirmation with a reference that is stored; else exactly the
 * schema's field errors.
 */
async function expectJsAnswer(values: Record<string, string>, rsc: string): Promise<void> {
  const parsed = contactSchema.safeParse(asPosted(values));
  if (parsed.success) {
    expect(rsc, rsc.slice(0, 400)).toContain('"status":"accepted"');
    const reference = /"reference":"([^"]+)"/.exec(rsc)?.[1];
    expect(reference, rsc.slice(0, 400)).toBeDefined();
    expect(
      await database.db.select().from(leads).where(eq(leads.reference, reference!)),
    ).toHaveLength(1);
  } else {
    expect(rsc, rsc.slice(0, 400)).toContain('"status":"invalid"');
    const errors = /"errors":(\{[^{}]*\})/.exec(rsc)?.[1];
    expect(JSON.parse(errors ?? 'null'), rsc.slice(0, 400)).toEqual(fieldErrors(parsed.error));
  }
}

/** The multipart bytes and content type of `body`, as fetch would send them. */
async function serialise(body: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const response = new Response(body);
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    type: response.headers.get('content-type')!,
  };
}

/** `bytes` as a stream of 16 KB chunks: fetch sends it chunked, without Content-Length. */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 16_384));
      offset += 16_384;
    },
  });
}

/** Mangles a string: one character changed, cut, lengthened, or replaced by noise. */
const mangled = (text: string) =>
  fc.oneof(
    fc
      .nat({ max: text.length - 1 })
      .map((i) => text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1)),
    fc.nat({ max: text.length - 1 }).map((i) => text.slice(0, i)),
    fc.constant(`${text}0`),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefxyz$_-:"'.split('')), maxLength: 50 }),
  );

/** The cases: each builds its request (some need the serialised body first). */
function postCase(id: string): fc.Arbitrary<PostRequest> {
  const fields = fieldValues.map<PostRequest>((values) => async () => ({
    kind: 'fields',
    detail: JSON.stringify(values).slice(0, 300),
    init: { body: mpaBody(values) },
    expected: [200],
  }));
  const fieldsJs = fieldValues.map<PostRequest>((values) => async () => ({
    kind: 'fields-js',
    detail: JSON.stringify(values).slice(0, 300),
    init: { body: fetchBody(values), headers: jsPost.headers },
    expected: [200],
    check: (rsc) => expectJsAnswer(values, rsc),
  }));
  const actionIds = fc
    .tuple(
      fc.constantFrom('header', 'descriptor', 'id-field'),
      mangled(id).filter((m) => m !== id),
    )
    .map<PostRequest>(([where, wrong]) => async () => {
      const detail = `${where} ${wrong}`;
      if (where === 'header')
        return {
          kind: 'action-id',
          detail,
          init: { body: fetchBody(usual), headers: { ...jsPost.headers, 'next-action': wrong } },
          expected: [404],
        };
      const body = mpaBody(usual);
      if (where === 'id-field') {
        for (const key of ['$ACTION_REF_1', '$ACTION_1:0', '$ACTION_1:1']) body.delete(key);
        body.append(`$ACTION_ID_${wrong}`, '');
      } else body.set('$ACTION_1:0', JSON.stringify({ id: wrong, bound: '$@1' }));
      return { kind: 'action-id', detail, init: { body }, expected: [404] };
    });
  const badArguments = fc
    .tuple(
      fc.boolean(),
      fc.oneof(
        fc.json(),
        fc.constantFrom(
          '["$Q1"]',
          '["$@2"]',
          '[{"a":"$D2020"}]',
          '[1,2,3]',
          '5',
          '"$K1"',
          '['.repeat(5_000),
        ),
        fc.string({ maxLength: 30 }),
      ),
    )
    .map<PostRequest>(([js, args]) => async () => {
      if (js)
        return {
          kind: 'arguments-js',
          detail: args.slice(0, 200),
          init: { body: fetchBody(usual, args), headers: jsPost.headers },
          expected: [200, 400],
        };
      const body = mpaBody(usual);
      body.set('$ACTION_1:1', args);
      return {
        kind: 'arguments',
        detail: args.slice(0, 200),
        init: { body },
        expected: [200, 400],
      };
    });
  const multipart = fc
    .record({
      how: fc.constantFrom('cut', 'boundary', 'no-boundary', 'garbage'),
      at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      noise: fc.uint8Array({ minLength: 1, maxLength: 2_000 }),
    })
    .map<PostRequest>(({ how, at, noise }) => async () => {
      const { bytes, type } = await serialise(mpaBody(usual));
      const boundary = type.split('boundary=')[1]!;
      // Anywhere before the closing delimiter, so the body is always incomplete.
      const closing = Buffer.from(bytes).lastIndexOf(`--${boundary}--`);
      const body =
        how === 'cut'
          ? bytes.subarray(0, Math.floor(at * closing))
          : how === 'garbage'
            ? noise
            : bytes;
      const contentType =
        how === 'boundary'
          ? `multipart/form-data; boundary=${boundary.slice(0, -1)}x`
          : how === 'no-boundary'
            ? 'multipart/form-data'
            : type;
      return {
        kind: `multipart-${how}`,
        detail: `at ${at}`,
        init: { body, headers: { 'content-type': contentType } },
        expected: [400],
      };
    });
  const oversized = fc
    .tuple(fc.constantFrom(ACTION_BODY_LIMIT_BYTES + 1, 100_000, 300_000, 1_200_000), fc.boolean())
    .map<PostRequest>(([size, isChunked]) => async () => {
      const { bytes, type } = await serialise(mpaBody({ ...usual, message: 'x'.repeat(size) }));
      return {
        kind: isChunked ? 'oversized-chunked' : 'oversized',
        init: {
          body: isChunked ? chunked(bytes) : bytes,
          duplex: 'half',
          headers: { 'content-type': type },
        },
        expected: [413],
      };
    });
  const contentTypes = fc
    .constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
      'multipart/mixed; boundary=x',
      'multipart/form-data; charset=utf-8',
    )
    .map<PostRequest>((type) => async () => ({
      kind: 'content-type',
      init: {
        body: new TextEncoder().encode('firstName=Asha'),
        headers: type ? { 'content-type': type } : ({} as Record<string, string>),
      },
      expected: [400],
    }));
  return fc.oneof(
    { weight: 6, arbitrary: fields },
    { weight: 3, arbitrary: fieldsJs },
    { weight: 2, arbitrary: actionIds },
    { weight: 2, arbitrary: badArguments },
    { weight: 2, arbitrary: multipart },
    { weight: 2, arbitrary: oversized },
    { weight: 1, arbitrary: contentTypes },
  );
}
