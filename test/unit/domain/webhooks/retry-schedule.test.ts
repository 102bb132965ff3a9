import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS, retryAfterMs } from '../../../../functions/shared/domain/webhooks/retry-schedule';

const nowMs = Date.parse('2026-11-24T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the retry schedule', () => {
  it('is the Standard Webhooks one: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after the first attempt', () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR]);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it('puts each retry within ±10 % of its step, spread by the random draw', () => {
    for (const [index, step] of RETRY_DELAYS_MS.entries()) {
      const low = nextAttemptAt(index + 1, nowMs, { timeScale: 1, random: 0 }) as number;
      const high = nextAttemptAt(index + 1, nowMs, { timeScale: 1, random: 0.999_999 }) as number;
      expect(low - nowMs).toBe(Math.round(step * 0.9));
      expect(Math.abs(high - nowMs - step * 1.1)).toBeLessThan(step * 0.000_01);
    }
  });

  it('has nothing after the tenth attempt', () => {
    expect(nextAttemptAt(10, nowMs, { timeScale: 1, random: 0.5 })).toBeUndefined();
  });

  it('is never sooner than a Retry-After asks, up to the longest step', () => {
    expect(nextAttemptAt(1, nowMs, { retryAfterMs: 120_000, timeScale: 1, random: 0.5 })).toBe(nowMs + 120_000);
    // Shorter than the step: the step wins.
    expect(nextAttemptAt(3, nowMs, { retryAfterMs: 1_000, timeScale: 1, random: 0 })).toBe(nowMs + 27 * MINUTE);
    expect(nextAttemptAt(1, nowMs, { retryAfterMs: 30 * 86_400_000, timeScale: 1, random: 0 })).toBe(nowMs + 24 * HOUR);
  });

  it('is compressed by a local run\'s time scale, Retry-After included', () => {
    expect(nextAttemptAt(9, nowMs, { timeScale: 0.0001, random: 0 })).toBe(nowMs + Math.round(24 * HOUR * 0.9 * 0.0001));
    expect(nextAttemptAt(1, nowMs, { retryAfterMs: 60_000, timeScale: 0.001, random: 0 })).toBe(nowMs + 60);
  });
});

describe('Retry-After', () => {
  it.each([
    ['120', 120_000],
    [' 7 ', 7_000],
    ['Tue, 24 Nov 2026 12:01:00 GMT', 60_000],
    ['Tue, 24 Nov 2026 11:00:00 GMT', 0],
  ])('%j waits %i ms', (header, expected) => {
    expect(retryAfterMs(header, nowMs)).toBe(expected);
  });

  it.each([undefined, '', '-5', '1.5', 'soon', '9999999999', '2026-11-24', 'Tue, 24 Nov 2026 12:01:00 PST'])('ignores %j', (header) => {
    expect(retryAfterMs(header, nowMs)).toBeUndefined();
  });
});
