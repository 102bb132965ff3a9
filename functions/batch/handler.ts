import { batchItems } from '../shared/domain/links/batch-request';
import { createLinks } from '../shared/domain/links/link-creation';
import { creationHandler } from '../shared/http/creation-handler';
import { recordCreations } from '../shared/http/outcome-metrics';
import { MAX_BODY_BYTES } from '../shared/http/body-limits';
import { json, type HttpResponse } from '../shared/http/responses';
import type { CreatedLinkView } from '../shared/domain/links/link';

/** Spec 2.4 lists the fields of a successful entry; createdAt is not among them. */
function batchEntryFields({ createdAt: _createdAt, ...fields }: CreatedLinkView) {
  return fields;
}

/** POST /v2/shorten/batch (and POST /v1/shorten/batch): spec 4.2, one result per item, in order. */
export const handler = creationHandler(MAX_BODY_BYTES.batch, async (body, creation) => {
  const items = batchItems(body);
  const outcomes = await createLinks(items, creation.context, creation.deps);
  recordCreations(outcomes, 'batch');
  const results = outcomes.map((outcome, index) =>
    outcome.ok ? { index, success: true, ...batchEntryFields(outcome.link) } : { index, success: false, error: outcome.error.message },
  );
  return json(200, { results });
}, someSucceeded);

/**
 * A batch whose every item failed is not kept for replay: once its cause is fixed (a plan upgrade, a freed alias),
 * the same request with the same key must run again rather than get the old failures back for 24 hours.
 */
function someSucceeded(response: HttpResponse): boolean {
  const { results } = JSON.parse(response.body) as { results: Array<{ success: boolean }> };
  return results.some((result) => result.success);
}
