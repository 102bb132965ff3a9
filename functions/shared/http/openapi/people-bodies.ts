import * as z from 'zod/mini';
import { ROLES } from '../../domain/accounts/permissions';
import { PLANS } from '../../domain/limits/plans';
import type { InvitationView } from '../../domain/workspaces/invitation';
import type { MemberView, WorkspaceView } from '../../domain/workspaces/people-management';

/** The answers of the workspace's people routes (issue 29), beside response-bodies.ts and checked the same way. */
const timestamp = z.iso.datetime({ precision: 3 });
const role = z.enum(ROLES);
const count = z.int().check(z.minimum(0));

export const workspaceViewBody = z.strictObject({
  id: z.string(),
  name: z.nullable(z.string()),
  plan: z.enum(PLANS),
  createdAt: z.nullable(z.string()),
  seats: z.strictObject({ used: count, limit: z.nullable(count) }),
  role,
  security: z.strictObject({ mfaRequired: z.boolean() }),
  analytics: z.strictObject({ country: z.boolean(), region: z.boolean(), city: z.boolean(), referrer: z.boolean(), device: z.boolean(), browser: z.boolean(), os: z.boolean(), campaign: z.boolean() }),
});

export const memberViewBody = z.strictObject({ userId: z.string(), email: z.string(), role, joinedAt: timestamp });
export const memberListBody = z.strictObject({ members: z.array(memberViewBody) });

export const invitationViewBody = z.strictObject({
  id: z.string(),
  email: z.string(),
  role,
  invitedBy: z.strictObject({ userId: z.string(), email: z.string() }),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export const invitationListBody = z.strictObject({ invitations: z.array(invitationViewBody) });
export const acceptedInvitationBody = z.strictObject({ workspaceId: z.string(), member: memberViewBody });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

/** Fails to compile when a schema and the type the domain returns drift apart. */
export type PeopleBodiesMatchTheDomain = [
  Expect<Same<z.output<typeof workspaceViewBody>, WorkspaceView>>,
  Expect<Same<z.output<typeof memberViewBody>, MemberView>>,
  Expect<Same<z.output<typeof invitationViewBody>, InvitationView>>,
];
