import { isOutage } from '../../../functions/shared/adapters/outages';

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
