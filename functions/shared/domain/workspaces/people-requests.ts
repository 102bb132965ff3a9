import * as z from 'zod/mini';
import { builtOnFirstUse } from '../request-parsing';
import { ROLES } from '../accounts/permissions';
import { OwnMessages } from '../messages';

/** Addresses are at most 254 characters (RFC 5321's path limit less its brackets); one @, something either side. */
const MAX_EMAIL_LENGTH = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
export const MAX_WORKSPACE_NAME_LENGTH = 100;
// Control characters and line breaks would reach the invitation mail's subject: refused, like a name of spaces.
const NAME_SHAPE = /^[^\p{Cc}\p{Zl}\p{Zp}]*\S[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

/** The schemas below, built on first use (request-parsing.ts). */
const schemas = builtOnFirstUse(() => {
  const role = z.enum(ROLES, { error: OwnMessages.memberRole });

  const analyticsFlag = z.optional(z.boolean({ error: OwnMessages.analyticsSwitches }));

  /** PATCH /v2/workspace's `analytics` (issue 30): any of analytics-switches.ts's switches, each true or false; nothing else. */
  const analyticsPatchSchema = z.strictObject(
    { country: analyticsFlag, region: analyticsFlag, city: analyticsFlag, referrer: analyticsFlag, device: analyticsFlag, browser: analyticsFlag, os: analyticsFlag, campaign: analyticsFlag },
    { error: OwnMessages.analyticsSwitches },
  );

  /** PATCH /v2/workspace: each setting optional (a setting left out keeps its value), at least one sent. */
  const workspacePatchSchema = z.object({
    name: z.optional(z.pipe(
      z.string({ error: OwnMessages.workspaceName }).check(z.maxLength(MAX_WORKSPACE_NAME_LENGTH * 2, OwnMessages.workspaceName), z.regex(NAME_SHAPE, OwnMessages.workspaceName)),
      z.pipe(
        z.transform((name: string) => name.trim()),
        z.string().check(z.minLength(1, OwnMessages.workspaceName), z.maxLength(MAX_WORKSPACE_NAME_LENGTH, OwnMessages.workspaceName)),
      ),
    )),
    /** Issue 30: the dimensions the workspace records, those named changing, the others kept. */
    analytics: z.optional(analyticsPatchSchema),
    // Owners' (security:manage, checked by the domain): whether the workspace's people must sign in with MFA.
    security: z.optional(z.strictObject({ mfaRequired: z.boolean({ error: OwnMessages.workspaceSecurity }) }, { error: OwnMessages.workspaceSecurity })),
  }).check(z.refine((patch) => Object.values(patch).some((value) => value !== undefined), OwnMessages.workspacePatchEmpty));

  /** PATCH /v2/members/{userId} */
  const memberPatchSchema = z.object({ role });

  /** POST /v2/invitations */
  const invitationRequestSchema = z.object({
    email: z.pipe(
      z.string({ error: OwnMessages.invitationEmail }).check(z.maxLength(MAX_EMAIL_LENGTH + 20, OwnMessages.invitationEmail)),
      z.pipe(
        z.transform((email: string) => email.trim()),
        z.string().check(z.maxLength(MAX_EMAIL_LENGTH, OwnMessages.invitationEmail), z.regex(EMAIL_SHAPE, OwnMessages.invitationEmail)),
      ),
    ),
    role,
  });
  return { analyticsPatchSchema, workspacePatchSchema, memberPatchSchema, invitationRequestSchema };
});
export const analyticsPatchSchema = () => schemas().analyticsPatchSchema;
export const workspacePatchSchema = () => schemas().workspacePatchSchema;
export const memberPatchSchema = () => schemas().memberPatchSchema;
export const invitationRequestSchema = () => schemas().invitationRequestSchema;

