import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { FLAG_CACHE_MS, SsmFlagSource } from '../../functions/shared/adapters/ssm-flag-source';
import { SAFE_DEFAULT_FLAGS } from '../../functions/shared/domain/limits/flags';
import { SsmStandIn } from '../../bin/local/ssm-standin';
import { ssm } from '../support/local-stack';
import { freePort } from '../../bin/local/child-process';

/** No retries: an unreachable endpoint should fail at once. */
const ssmClientAt = (port: number) =>
  new SSMClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });

const log = { warn: jest.fn(), error: jest.fn() };
let prefix: string;
let clock: number;

async function put(flag: string, value: string): Promise<void> {
  await ssm().send(new PutParameterCommand({ Name: `${prefix}/${flag}`, Value: value, Type: 'String', Overwrite: true }));
}

beforeEach(() => {
  prefix = `/test/${Date.now()}-${Math.random().toString(36).slice(2)}/flags`;
  clock = 1_000_000;
  log.warn.mockClear();
  log.error.mockClear();
});

describe('SsmFlagSource against the SSM stand-in', () => {
  it('reads every flag in one call, defaults for the missing ones', async () => {
    await put('maintenance', 'on');
    await put('customAliases', 'off');
    const flags = await new SsmFlagSource(ssm(), prefix, log, () => clock).current();
    expect(flags).toEqual({ ...SAFE_DEFAULT_FLAGS, maintenance: true, customAliases: false });
  });

  it('serves from cache for the cache time, then sees the operator change', async () => {
    await put('shortening', 'on');
    const source = new SsmFlagSource(ssm(), prefix, log, () => clock);
    expect((await source.current()).shortening).toBe(true);
    await put('shortening', 'off');
    clock += FLAG_CACHE_MS - 1;
    expect((await source.current()).shortening).toBe(true);
    clock += 1;
    expect((await source.current()).shortening).toBe(false);
    expect(FLAG_CACHE_MS).toBeLessThanOrEqual(10_000);
  });

  it('keeps the last known flags when SSM becomes unreachable, and logs it', async () => {
    const standIn = new SsmStandIn();
    const port = await standIn.listen(await freePort());
    standIn.put(`${prefix}/maintenance`, 'on');
    const source = new SsmFlagSource(ssmClientAt(port), prefix, log, () => clock);
    expect((await source.current()).maintenance).toBe(true);
    await standIn.close();
    clock += FLAG_CACHE_MS;
    expect((await source.current()).maintenance).toBe(true);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('fails safe with nothing known: maintenance off, features on, an error logged', async () => {
    expect(await new SsmFlagSource(ssmClientAt(await freePort()), prefix, log, () => clock).current()).toEqual(SAFE_DEFAULT_FLAGS);
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});
