import { describe, expect, it } from 'vitest';
import { describeDeliveries, type JobState } from './delivery-summary';

const job = (
  channel: JobState['channel'],
  status: JobState['status'],
  lastError: string | null = null,
): JobState => ({
  channel,
  status,
  lastError,
});

describe('describeDeliveries', () => {
  it.each<[JobState[], string]>([
    [[], 'none'],
    [[job('email', 'sent')], 'email sent'],
    [
      [job('demo', 'pending'), job('email', 'sent'), job('demo', 'sent'), job('demo', 'sent')],
      'email sent; demo 2/3 sent, 1/3 pending',
    ],
    [
      [job('webhook', 'sent'), job('email', 'failed', 'Error EENVELOPE 550')],
      'email failed (Error EENVELOPE 550); webhook sent',
    ],
    [
      [job('email', 'sent'), job('webhook', 'sent'), job('webhook', 'failed', 'HTTP 410')],
      'email sent; webhook 1/2 sent, 1/2 failed (HTTP 410)',
    ],
    [
      [
        job('email', 'pending'),
        job('webhook', 'pending', 'HTTP 503'),
        job('webhook', 'pending', 'Error ECONNREFUSED'),
      ],
      'email pending; webhook 2/2 pending',
    ],
  ])('describes %j as %j', (jobs, text) => {
    expect(describeDeliveries(jobs)).toBe(text);
  });
});
