import { isOutage, LOCAL_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS, type TRANSPORT_LIMITS } from '../../../functions/shared/adapters/outages';
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
  /** TRANSPORT_LIMITS as a function's module builds them at import, in the given environment. */
  function limitsIn(environment: Record<string, string>): typeof TRANSPORT_LIMITS {
    const saved = { ...process.env };
    Object.assign(process.env, environment);
    try {
      let limits: typeof TRANSPORT_LIMITS | undefined;
      jest.isolateModules(() => {
        limits = (jest.requireActual('../../../functions/shared/adapters/outages') as { TRANSPORT_LIMITS: typeof TRANSPORT_LIMITS }).TRANSPORT_LIMITS;
      });
      return limits as typeof TRANSPORT_LIMITS;
    } finally {
      process.env = saved;
    }
  }

  it('is 1.2 s an attempt on AWS, where nothing sets a local limit', () => {
    expect(limitsIn({}).requestHandler.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(1_200);
  });

  it("is DynamoDB Local's longer limit in every process the local stack points at its emulators", () => {
    expect(limitsIn(localAwsEnvironment(8000, 8100)).requestHandler.requestTimeout).toBe(LOCAL_REQUEST_TIMEOUT_MS);
    expect(LOCAL_REQUEST_TIMEOUT_MS).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  });

  it.each(['', '0', '-5', 'soon'])('falls back to 1.2 s when the local limit is %j', (value) => {
    expect(limitsIn({ LOCAL_REQUEST_TIMEOUT_MS: value }).requestHandler.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
  });
});
