import { isOutage, LOCAL_SDK_TIMEOUT_MS, transportLimits } from '../../../functions/shared/adapters/outages';
import { localAwsEnvironment } from '../../../bin/local/stack';

describe('what counts as a dependency outage', () => {
  it.each([
    ['a timeout', { name: 'TimeoutError' }],
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a reset connection', { code: 'ECONNRESET' }],
    ['throttling', { name: 'ProvisionedThroughputExceededException', $metadata: { httpStatusCode: 400 } }],
    ['a 500 from the service', { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } }],
    ['any 5xx', { name: 'Whatever', $metadata: { httpStatusCode: 503 } }],
  ])('%s is', (_why, error) => {
    expect(isOutage(error)).toBe(true);
  });

  it.each([
    ['a failed condition', { name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } }],
    ['a validation error', { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }],
    ['a bug', new TypeError('x is undefined')],
    ['not an error at all', 'oops'],
  ])('%s is not', (_why, error) => {
    expect(isOutage(error)).toBe(false);
  });
});

describe('how long a DynamoDB or SSM call may take', () => {
  it('is 1 s to connect and 1.2 s to answer on AWS, where nothing sets a local limit', () => {
    expect(transportLimits({}).requestHandler).toEqual({ connectionTimeout: 1_000, requestTimeout: 1_200, throwOnRequestTimeout: true });
    expect(transportLimits({}).maxAttempts).toBe(2);
  });

  it("is DynamoDB Local's longer limit, for both, in every process the local stack points at its emulators", () => {
    const { requestHandler } = transportLimits(localAwsEnvironment(8000, 8100));
    expect(requestHandler).toEqual({ connectionTimeout: LOCAL_SDK_TIMEOUT_MS, requestTimeout: LOCAL_SDK_TIMEOUT_MS, throwOnRequestTimeout: true });
    // Past the kernel's second SYN retry (1 s, then 3 s): a connection its full backlog refused twice still gets in.
    expect(LOCAL_SDK_TIMEOUT_MS).toBeGreaterThan(3_000);
  });

  it.each(['', '0', '-5', 'soon'])('falls back to AWS limits when the local limit is %j', (value) => {
    expect(transportLimits({ LOCAL_SDK_TIMEOUT_MS: value }).requestHandler).toEqual(transportLimits({}).requestHandler);
  });
});
