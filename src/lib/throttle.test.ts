import { describe, expect, it } from 'vitest';
import { createThrottle } from './throttle';

describe('createThrottle', () => {
  it('lets one line through per interval, with the occurrences since the last', () => {
    let clock = 0;
    const throttle = createThrottle(60_000, () => clock);
    expect(throttle()).toBe(1);
    expect(throttle()).toBeNull();
    clock = 59_999;
    expect(throttle()).toBeNull();
    clock = 60_000;
    expect(throttle()).toBe(3);
    clock = 200_000;
    expect(throttle()).toBe(1);
  });
});
