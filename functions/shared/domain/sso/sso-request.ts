import * as z from 'zod/mini';
import { asciiDomain } from '../domains/host-name';
import { OwnMessages } from '../messages';
import { SSO_PROTOCOLS } from './sso-connection';

/**
 * The provider's addresses are fetched by the user pool, not by the service; they must be https so the pool never
 * reads keys or metadata in the clear. A local run also accepts the loopback hosts it allow-lists (its stand-in
 * customer's provider).
 */
function providerUrl(localHosts: ReadonlySet<string>, message: string) {
  return z.string({ error: message }).check(
    z.refine((text) => {
      if (text.length > 2048 || !URL.canParse(text)) return false;
      const url = new URL(text);
      return (url.protocol === 'https:' && url.username === '' && url.password === '') || (url.protocol === 'http:' && localHosts.has(url.host));
    }, message),
  );
}

const text = (message: string) => z.string({ error: message }).check(z.minLength(1, message), z.maxLength(1000, message));

export function ssoRequestSchema(localHosts: ReadonlySet<string>) {
  return z
    .object({
      domain: z.pipe(
        z.string({ error: OwnMessages.ssoDomainInvalid }).check(z.refine((name) => (asciiDomain(name)?.split('.').length ?? 0) >= 2, OwnMessages.ssoDomainInvalid)),
        z.transform((name: string) => asciiDomain(name) as string),
      ),
      protocol: z.enum(SSO_PROTOCOLS, { error: OwnMessages.ssoProtocol }),
      oidc: z.optional(
        z.object(
          { issuer: providerUrl(localHosts, OwnMessages.ssoOidc), clientId: text(OwnMessages.ssoOidc), clientSecret: text(OwnMessages.ssoOidc) },
          { error: OwnMessages.ssoOidc },
        ),
      ),
      saml: z.optional(z.object({ metadataUrl: providerUrl(localHosts, OwnMessages.ssoSaml) }, { error: OwnMessages.ssoSaml })),
    })
    .check(
      // The protocol's own settings and no other's: a SAML connection carrying an OIDC secret is a mistake to refuse.
      z.refine((request) => (request.protocol === 'oidc' ? request.oidc !== undefined && request.saml === undefined : request.saml !== undefined && request.oidc === undefined), {
        error: (issue) => ((issue.input as { protocol?: string } | undefined)?.protocol === 'oidc' ? OwnMessages.ssoOidc : OwnMessages.ssoSaml),
      }),
    );
}

export type SsoRequest = z.output<ReturnType<typeof ssoRequestSchema>>;
