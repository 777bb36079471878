/**
 * pm tag "Workspaces" (82): workspace CRUD and lifecycle (delete with a
 * restore window, ownership, leaving), the switcher, settings (general,
 * features, default views, security policy, seat limit), branding and logo,
 * statistics and usage, hierarchy reads (tree, folders, short-id resolution,
 * search, archive, statuses, custom fields and tags across spaces, export
 * and import of the structure), members (roles, removal, bulk changes,
 * deactivation, search, summaries, export, permissions), invitations by
 * e-mail (accept, decline, revoke, resend, expiry), the invite link, guests,
 * joining by e-mail domain, and the membership audit.
 *
 * Membership is the identity workspace actor's (shared with the hub), which
 * keeps the membership history the audit reads (whichever service made the
 * change); pm's own workspace data (settings, invitations, the invite link,
 * deactivations) is written by the workspace's `PmOrganization` actor, whose
 * changes are `workspace.*` and `invitation.*` events of the change log.
 */
import type { AnyOperation } from "../Operation.ts"
import { workspaceCoreOperations } from "./workspaces/Core.ts"
import { workspaceSettingsOperations } from "./workspaces/Settings.ts"
import { workspaceBrandingOperations } from "./workspaces/Branding.ts"
import { workspaceStatsOperations } from "./workspaces/Stats.ts"
import { workspaceHierarchyOperations } from "./workspaces/Hierarchy.ts"
import { workspaceMembersOperations } from "./workspaces/Members.ts"
import { workspaceInvitationsOperations } from "./workspaces/Invitations.ts"
import { workspaceInviteLinkOperations } from "./workspaces/InviteLink.ts"
import { workspaceGuestsOperations } from "./workspaces/Guests.ts"
import { workspaceJoiningOperations } from "./workspaces/Joining.ts"
import { workspaceAuditOperations } from "./workspaces/Audit.ts"

export const workspacesOperations: ReadonlyArray<AnyOperation> = [
  ...workspaceCoreOperations,
  ...workspaceSettingsOperations,
  ...workspaceBrandingOperations,
  ...workspaceStatsOperations,
  ...workspaceHierarchyOperations,
  ...workspaceMembersOperations,
  ...workspaceInvitationsOperations,
  ...workspaceInviteLinkOperations,
  ...workspaceGuestsOperations,
  ...workspaceJoiningOperations,
  ...workspaceAuditOperations
]
