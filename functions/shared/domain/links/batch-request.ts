import * as z from 'zod/mini';
import { Messages, OwnMessages } from '../messages';
import { builtOnFirstUse, parseOrRefuse } from '../request-parsing';
import { MAX_BATCH_ITEMS } from './batch-limits';

export { MAX_BATCH_ITEMS };

/**
 * The whole-request checks of spec 4.2: the items themselves are judged one by one (each against the link
 * request schema), never failing the batch.
 */
export const batchRequestSchema = builtOnFirstUse(() =>
  z.object({
    urls: z.array(z.unknown(), { error: OwnMessages.urlsNotArray }).check(z.minLength(1, Messages.batchEmpty), z.maxLength(MAX_BATCH_ITEMS, Messages.batchTooLarge)),
  }),
);

export function batchItems(body: object): unknown[] {
  return parseOrRefuse(batchRequestSchema(), body).urls;
}
