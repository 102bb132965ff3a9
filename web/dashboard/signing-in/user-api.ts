/**
 * The user pool's own user API, as Cognito's apps call it from a page: AWS JSON 1.1 at the issuer's origin
 * (Cognito's `https://cognito-idp.<region>.amazonaws.com/`, or the local provider's port), with the person's access
 * token (scope `aws.cognito.signin.user.admin`) in the input. Nothing here touches the page: unit-tested in Node.
 */

export type Fetch = typeof fetch;

/** A refusal in words for the person (what the caller makes of Cognito's `__type`, or the network's failure). */
export class UserApiFailed extends Error {}

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService';

/** Calls `operation`; a refusal throws UserApiFailed with `explain(Cognito's __type)`. */
export async function userApi(issuer: string, operation: string, input: Record<string, unknown>, explain: (type: unknown) => string, fetcher: Fetch = fetch): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetcher(`${new URL(issuer).origin}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET_PREFIX}.${operation}` },
      body: JSON.stringify(input),
    });
  } catch {
    throw new UserApiFailed('The sign-in service could not be reached. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new UserApiFailed(explain(body.__type));
  return body;
}

/** What most refusals mean for the person: their session no longer suits the call. */
export const REFUSED = 'The sign-in service refused: sign out, sign in again and retry.';
