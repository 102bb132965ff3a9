/** The Idempotency-Key contract's names and lifetime, without the parsing (the idempotency bundle needs only these). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a first answer is kept for repeats of its key. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
