import * as z from 'zod/mini';
import { InvalidRequest } from './errors';

/**
 * A whole-number query parameter as API Gateway passes it (a string), within [min, max]; anything else is
 * refused with `message`, which names the parameter.
 */
export function wholeNumberParameter(min: number, max: number, message: string) {
  return z.pipe(
    z.string().check(z.regex(/^\d{1,6}$/, message)),
    z.pipe(z.transform(Number), z.int().check(z.minimum(min, message), z.maximum(max, message))),
  );
}

/** The schema's output, or a 400 with the first problem's message (each schema's messages name their field). */
export function parseOrRefuse<T extends z.ZodMiniType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new InvalidRequest(result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}
