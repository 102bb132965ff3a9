import { TokenBucket } from '../../../bin/local/token-bucket';

describe('the local stack\'s throttle, as API Gateway\'s', () => {
  it('lets a burst through, then the rate, and refuses what is past them', () => {
    let now = 0;
    const bucket = new TokenBucket(50, 100, () => now);
    const burst = Array.from({ length: 120 }, () => bucket.take());
    expect(burst.filter(Boolean)).toHaveLength(100);
    now += 1_000;
    expect(Array.from({ length: 60 }, () => bucket.take()).filter(Boolean)).toHaveLength(50);
    now += 60_000;
    expect(Array.from({ length: 200 }, () => bucket.take()).filter(Boolean)).toHaveLength(100);
  });
});
