import { describe, expect, it } from 'vitest';
import { meera } from '@test/demo-settings';
import type { DemoBooking } from '../types';
import { bookedDemoOf } from './booked-demo';

const env = { DEMO_HOSTS: [meera], DEMO_TIMEZONE: 'Asia/Kolkata' };
const booking = {
  id: 'b-1',
  hostEmail: 'Meera@nirmaya.example',
  startsAt: new Date('2027-03-01T04:30:00Z'),
  endsAt: new Date('2027-03-01T05:15:00Z'),
} as DemoBooking;

describe('bookedDemoOf', () => {
  it("shows the host's meeting link only on a page opened from a link e-mailed to the address", () => {
    // The booking page right after booking (confirmation off: nothing proved the address yet).
    const unproved = bookedDemoOf(booking, env, 'unproved');
    expect(unproved).toEqual({
      start: '2027-03-01T04:30:00.000Z',
      day: expect.any(String),
      time: expect.stringMatching(/10:00/),
      hostName: 'Meera Iyer',
    });
    expect(JSON.stringify(unproved)).not.toContain('meet.example');
    // The manage or confirmation page, reached by the e-mailed link.
    expect(bookedDemoOf(booking, env, 'proved').meetingUrl).toBe('https://meet.example/meera');
  });
});
