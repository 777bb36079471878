/**
 * The actors of pm organization: `PmOrganization`, one per workspace, the
 * single writer of its settings, logo, invitations, invite link,
 * deactivations and public share links; `PmPersonal`, one per user, the
 * single writer of their favorites and workspace order. Like the work
 * hierarchy's actors, each command commits its rows and change events
 * together through the ChangeLog.
 */
import { deactivationCommands } from "./Deactivations.ts"
import { favoriteCommands } from "./Favorites.ts"
import { invitationCommands } from "./Invitations.ts"
import { shareLinkCommands } from "./ShareLinks.ts"
import { workActor } from "./WorkActor.ts"
import { configCommands } from "./WorkspaceConfig.ts"

export const PmOrganization = workActor("pmOrganization", {
  ...configCommands,
  ...invitationCommands,
  ...deactivationCommands,
  ...shareLinkCommands
})

export const PmPersonal = workActor("pmPersonal", { ...favoriteCommands })
