/**
 * API Gateway's throttle: a bucket of `burstLimit` tokens refilled at `rateLimit` a second; a request takes one, and
 * none left means 429. Per method, as the stage's MethodSettings say.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly rateLimit: number,
    private readonly burstLimit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burstLimit;
    this.updatedAt = now();
  }

  take(): boolean {
    const nowMs = this.now();
    this.tokens = Math.min(this.burstLimit, this.tokens + ((nowMs - this.updatedAt) / 1000) * this.rateLimit);
    this.updatedAt = nowMs;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
