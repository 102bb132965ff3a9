import { lambdaRecord, pollWaitMs, POLL_MS } from '../../../bin/local/stream-source';

/** The local stream player hands records over in Lambda's shape, from the streams API's wire format. */
describe('a stream record as Lambda delivers it', () => {
  it('names its table\'s stream, keeps its time in seconds, and spells a TTL removal\'s identity as Lambda does', () => {
    const record = lambdaRecord(
      {
        eventID: 'e1',
        eventName: 'REMOVE',
        dynamodb: { Keys: { code: { S: 'abc' } }, OldImage: { code: { S: 'abc' } }, ApproximateCreationDateTime: Date.parse('2026-11-24T12:00:00.000Z') / 1000, SequenceNumber: '1' },
        userIdentity: { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' },
      },
      'DataLinks1234',
      'us-east-1',
    );
    expect(record).toEqual({
      eventID: 'e1',
      eventName: 'REMOVE',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: { Keys: { code: { S: 'abc' } }, OldImage: { code: { S: 'abc' } }, ApproximateCreationDateTime: Date.parse('2026-11-24T12:00:00.000Z') / 1000, SequenceNumber: '1' },
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/DataLinks1234/stream/local',
      // functions/webhook-events reads these two to tell DynamoDB's TTL removals from deletions by code.
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
    });
    expect(lambdaRecord({ eventID: 'e2', eventName: 'INSERT', dynamodb: {} }, 'T', 'us-east-1')).not.toHaveProperty('userIdentity');
  });
});

/** Each GetRecords costs DynamoDB Local about 5 ms of CPU, empty or not: a shard at rest is read less and less often. */
describe('how long a shard reader waits before its next read', () => {
  it('polls at Lambda\'s pace after records, then backs off to one read a second while pages come back empty', () => {
    expect([0, 1, 2, 3, 4, 10].map((quietReads) => pollWaitMs(quietReads, false))).toEqual([POLL_MS, POLL_MS, 500, 1_000, 1_000, 1_000]);
  });

  it('after a nudge reads 100 ms later and then further apart, four reads in the nudge\'s second', () => {
    const waits = [1, 2, 3, 4, 5, 6].map((quietReads) => pollWaitMs(quietReads, true));
    expect(waits).toEqual([100, 200, 400, 400, 400, 400]);
  });

  it('never polls sooner than the pace it was given (tests give a pace no test outlasts)', () => {
    expect(pollWaitMs(1, false, 3_600_000)).toBe(3_600_000);
    expect(pollWaitMs(5, false, 3_600_000)).toBe(3_600_000);
  });
});
