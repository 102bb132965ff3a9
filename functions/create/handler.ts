import { createLinks } from '../shared/domain/links/link-creation';
import { creationHandler } from '../shared/http/creation-handler';
import { recordCreations } from '../shared/http/outcome-metrics';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { json } from '../shared/http/responses';

/** POST /v2/shorten (and its anonymous twin POST /v1/shorten): spec 4.1. */
export const handler = creationHandler(MAX_BODY_BYTES.link, async (body, creation) => {
  const outcomes = await createLinks([body], creation.context, creation.deps);
  recordCreations(outcomes, 'single');
  const [outcome] = outcomes;
  if (!outcome) throw new Error('no outcome for a single creation');
  if (!outcome.ok) throw outcome.error;
  return json(201, outcome.link);
});
