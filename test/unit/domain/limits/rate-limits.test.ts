import { QuotaExceeded, RateLimited } from '../../../../functions/shared/domain/errors';
import { admitCall, countMonthlyCalls, monthlyQuotaCounter, RATE_LIMITS } from '../../../../functions/shared/domain/limits/rate-limits';
import { MemoryUsageCounter } from '../../../support/in-memory-ports';
import { keyCaller } from '../../../support/callers';

const nowMs = Date.parse('2026-11-22T10:00:30.000Z');
const key = keyCaller({ keyId: 'key_1', accountId: 'acct_1', owner: 'acct:acct_1', plan: 'PRO' });

describe('admitting a call', () => {
  it('counts calls per key per minute and reports what is left', async () => {
    const counter = new MemoryUsageCounter();
    const first = await admitCall(key, counter, nowMs);
    expect(first).toEqual({ limit: 1000, remaining: 999, resetsAt: Date.parse('2026-11-22T10:01:00.000Z') / 1000 });
    expect((await admitCall(key, counter, nowMs)).remaining).toBe(998);
  });

  it('refuses the 1001st call of a minute with the seconds to wait, and admits again next minute', async () => {
    const counter = new MemoryUsageCounter();
    for (let i = 0; i < RATE_LIMITS.perApiKey.requests; i += 1) await admitCall(key, counter, nowMs);
    await expect(admitCall(key, counter, nowMs)).rejects.toMatchObject({ retryAfterSeconds: 30, status: { remaining: 0 } });
    await expect(admitCall(key, counter, nowMs)).rejects.toBeInstanceOf(RateLimited);
    await expect(admitCall(key, counter, nowMs + 30_000)).resolves.toMatchObject({ remaining: 999 });
  });

  it('limits anonymous callers per IP to 5 a minute, each IP on its own', async () => {
    const counter = new MemoryUsageCounter();
    const anonymous = (client: string) => ({ kind: 'anonymous', client }) as const;
    for (let i = 0; i < 5; i += 1) await admitCall(anonymous('1.1.1.1'), counter, nowMs);
    await expect(admitCall(anonymous('1.1.1.1'), counter, nowMs)).rejects.toBeInstanceOf(RateLimited);
    await expect(admitCall(anonymous('2.2.2.2'), counter, nowMs)).resolves.toMatchObject({ limit: 5, remaining: 4 });
  });

  it('refuses calls past the monthly quota with the limit and the reset date', async () => {
    const counter = new MemoryUsageCounter();
    const small = { ...key, monthlyLimitOverride: 2 };
    await admitCall(small, counter, nowMs);
    await admitCall(small, counter, nowMs + 60_000);
    const refusal = admitCall(small, counter, nowMs + 120_000);
    await expect(refusal).rejects.toBeInstanceOf(QuotaExceeded);
    await expect(refusal).rejects.toMatchObject({ limit: 2, resetDate: '2026-12-01' });
  });

  it('does not charge the quota for calls the minute window refused', async () => {
    const counter = new MemoryUsageCounter();
    const quotaCounters = () => [...counter.counts.keys()].filter((id) => id.startsWith('quota#'));
    const small = { ...key, monthlyLimitOverride: 5000 };
    for (let i = 0; i < 1001; i += 1) await admitCall(small, counter, nowMs).catch(() => undefined);
    expect(counter.counts.get(quotaCounters()[0] ?? '')).toBe(1000);
  });

  it('puts no monthly cap on ENTERPRISE keys, and spends no write on metering them', async () => {
    const counter = new MemoryUsageCounter();
    for (let i = 0; i < 3; i += 1) await admitCall({ ...key, plan: 'ENTERPRISE' }, counter, nowMs);
    expect(counter.counts.has(monthlyQuotaCounter('acct_1', nowMs))).toBe(false);
  });

  it('shares one monthly quota among the keys of an account, and keeps the minute window per key', async () => {
    const counter = new MemoryUsageCounter();
    const first = { ...key, monthlyLimitOverride: 3 };
    const second = { ...first, keyId: 'key_2' };
    expect((await admitCall(first, counter, nowMs)).remaining).toBe(999);
    expect((await admitCall(second, counter, nowMs)).remaining).toBe(999);
    await admitCall(first, counter, nowMs);
    await expect(admitCall(second, counter, nowMs)).rejects.toBeInstanceOf(QuotaExceeded);
    await expect(admitCall({ ...second, accountId: 'acct_other' }, counter, nowMs)).resolves.toMatchObject({ remaining: 997 });
  });
});

describe('counting work worth several calls', () => {
  const status = { limit: 1000, remaining: 999, resetsAt: 0 };
  const month = monthlyQuotaCounter('acct_1', nowMs);

  it('hands back what it counted, for work that was not done after all', async () => {
    const counter = new MemoryUsageCounter();
    const giveBack = await countMonthlyCalls(key, counter, nowMs, status, 40);
    expect(await counter.current(month)).toBe(40);
    await giveBack();
    expect(await counter.current(month)).toBe(0);
  });

  it('gives back what it had counted when the counter fails midway, and fails', async () => {
    const counter = new MemoryUsageCounter();
    const tryConsume = counter.tryConsume.bind(counter);
    let calls = 0;
    counter.tryConsume = async (...args) => {
      calls += 1;
      if (calls === 5) throw new Error('DynamoDB down');
      return tryConsume(...args);
    };
    await expect(countMonthlyCalls(key, counter, nowMs, status, 40)).rejects.toThrow('DynamoDB down');
    expect(await counter.current(month)).toBe(0);
  });
});
