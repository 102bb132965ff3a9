import { MAX_BODY_BYTES } from '../../../functions/shared/http/body-limits';

/** Lambda's largest synchronous request (6 MB), the event's other fields (headers twice over, context) set apart. */
const LAMBDA_REQUEST_BYTES = 6 * 1024 * 1024;
const EVENT_FIELDS_ALLOWANCE = 256 * 1024;

describe('the largest bodies the API accepts', () => {
  it.each(Object.entries(MAX_BODY_BYTES))('%s fits one Lambda request in base64, as API Gateway hands every body over (binaryMediaTypes */*)', (_kind, bytes) => {
    const inEvent = Math.ceil(bytes / 3) * 4;
    expect(inEvent + EVENT_FIELDS_ALLOWANCE).toBeLessThanOrEqual(LAMBDA_REQUEST_BYTES);
  });
});
