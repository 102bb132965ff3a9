import * as z from 'zod/mini';
import { Messages } from '../messages';
import { builtOnFirstUse } from '../request-parsing';
import { isAcceptableDestination, normaliseDestination } from './url-policy';

/** A destination as every field that holds one accepts it: trimmed, checked and stored in its ASCII form. */
export const destination = builtOnFirstUse(() =>
  z.pipe(
    z.string({ error: Messages.invalidUrl }).check(z.trim(), z.refine(isAcceptableDestination, Messages.invalidUrl)),
    z.transform((url: string) => normaliseDestination(url) ?? url),
  ),
);
