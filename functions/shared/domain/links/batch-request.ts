import { InvalidRequest } from '../errors';
import { Messages, OwnMessages } from '../messages';

export const MAX_BATCH_ITEMS = 50;

/** The whole-request checks of spec 4.2: items themselves are judged one by one, never failing the batch. */
export function batchItems(body: object): unknown[] {
  const urls = (body as { urls?: unknown }).urls;
  if (!Array.isArray(urls)) throw new InvalidRequest(OwnMessages.urlsNotArray);
  if (urls.length === 0) throw new InvalidRequest(Messages.batchEmpty);
  if (urls.length > MAX_BATCH_ITEMS) throw new InvalidRequest(Messages.batchTooLarge);
  return urls;
}
