import * as z from 'zod/mini';
import { OwnMessages } from '../messages';
import { builtOnFirstUse, LIST_LIMIT, wholeNumberParameter } from '../request-parsing';
import { MAX_DESCRIPTION_LENGTH, SUBSCRIBABLE_EVENTS } from './webhook';

/** The schemas below, built on first use (request-parsing.ts). */
const schemas = builtOnFirstUse(() => {
  const events = z.pipe(
    z.array(z.enum(SUBSCRIBABLE_EVENTS, { error: OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS) }), { error: OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS) }).check(
      z.minLength(1, OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS)),
      z.maxLength(SUBSCRIBABLE_EVENTS.length * 4, OwnMessages.webhookEvents(SUBSCRIBABLE_EVENTS)),
    ),
    // Listed once each, in the catalogue's order, whatever the request's order and repeats.
    z.transform((chosen: Array<(typeof SUBSCRIBABLE_EVENTS)[number]>) => SUBSCRIBABLE_EVENTS.filter((event) => chosen.includes(event))),
  );
  const description = z.string({ error: OwnMessages.webhookDescription(MAX_DESCRIPTION_LENGTH) }).check(z.maxLength(MAX_DESCRIPTION_LENGTH, OwnMessages.webhookDescription(MAX_DESCRIPTION_LENGTH)));
  const url = z.string({ error: OwnMessages.webhookUrl });

  const webhookRequestSchema = z.object({ url, events, description: z.optional(description) });

  const webhookPatchSchema = z.object({
    url: z.optional(url),
    events: z.optional(events),
    description: z.optional(description),
    enabled: z.optional(z.boolean({ error: OwnMessages.webhookEnabled })),
  });

  /** POST …/rotate-secret: `expirePrevious: true` ends the previous secret at once (a leaked one), no 24 hours beside the new. */
  const webhookRotationSchema = z.object({
    expirePrevious: z.optional(z.boolean({ error: OwnMessages.webhookExpirePrevious })),
  });

  /** GET …/deliveries: `limit` (1–100, 20 by default) and the previous page's `nextCursor`. */
  const deliveriesQuerySchema = z.object({
    limit: z.optional(wholeNumberParameter(LIST_LIMIT.min, LIST_LIMIT.max, OwnMessages.limitParameter)),
    cursor: z.optional(z.string().check(z.maxLength(512, OwnMessages.cursorParameter))),
  });
  return { webhookRequestSchema, webhookPatchSchema, webhookRotationSchema, deliveriesQuerySchema };
});
export const webhookRequestSchema = () => schemas().webhookRequestSchema;
export const webhookPatchSchema = () => schemas().webhookPatchSchema;
export const webhookRotationSchema = () => schemas().webhookRotationSchema;
export const deliveriesQuerySchema = () => schemas().deliveriesQuerySchema;

