import '@test/quiet-logs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '@/server/platform/log';
import { POST } from './route';

const url = 'http://127.0.0.1/api/csp-report';

function post(body: string, contentType = 'application/csp-report') {
  return POST(new Request(url, { method: 'POST', body, headers: { 'content-type': contentType } }));
}

describe('POST /api/csp-report', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs a violation as a warning and answers 204', async () => {
    const warn = vi.spyOn(log, 'warn');
    const report = {
      'csp-report': {
        'document-uri': 'https://nirmaya.example/?q=1',
        'blocked-uri': 'inline',
        'effective-directive': 'script-src-elem',
      },
    };
    const response = await post(JSON.stringify(report));
    expect(response.status).toBe(204);
    expect(warn).toHaveBeenCalledWith(
      {
        event: 'csp_violation',
        document: 'https://nirmaya.example/',
        blocked: 'inline',
        directive: 'script-src-elem',
        disposition: 'enforce',
      },
      'Content-Security-Policy violation',
    );
  });

  it('answers 400 to a body that is not JSON or not a CSP report, and logs nothing', async () => {
    const warn = vi.spyOn(log, 'warn');
    expect((await post('not json')).status).toBe(400);
    expect((await post('{"hello":"world"}', 'application/json')).status).toBe(400);
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers 413 to a body over 16 KB, declared or streamed', async () => {
    const declared = new Request(url, {
      method: 'POST',
      body: '{}',
      headers: { 'content-length': '20000' },
    });
    expect((await POST(declared)).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const streamed = new Request(url, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await POST(streamed)).status).toBe(413);
  });
});
