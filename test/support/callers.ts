import type { ApiKeyCaller } from '../../functions/shared/domain/accounts/caller';
import { ALL_SCOPES } from '../../functions/shared/domain/accounts/permissions';

/** A caller holding an API key made before scopes (every scope), as most domain tests need. */
export function keyCaller(fields: Omit<ApiKeyCaller, 'kind' | 'scopes' | 'actor'> & Partial<Pick<ApiKeyCaller, 'scopes' | 'actor'>>): ApiKeyCaller {
  return { kind: 'apiKey', scopes: ALL_SCOPES, actor: { kind: 'key', keyId: fields.keyId }, ...fields };
}
