/** Who follows the live streams and what they follow: shared by pm's visibility rules and the scopes other services add (feedback boards). */
import type { Role } from "../identity/Workspace.ts"
import type { ChangeScope } from "./ChangeLog.ts"

export interface Viewer {
  readonly userId: string
  readonly workspaceId: string
  readonly role: Role
}

/** A scope the viewer may follow, with the ancestors that place it. */
export interface ScopeTarget {
  readonly scope: ChangeScope
  readonly id: string
  readonly spaceId?: string
  readonly listId?: string
  readonly privateSpace: boolean
}
