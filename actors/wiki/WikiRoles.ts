/**
 * Who may do what in the wiki, as pure rules over data already loaded.
 *
 * A workspace member's baseline space role follows their workspace role
 * (owner/admin → admin, member → editor, viewer → viewer). A space's
 * permission entries refine it: an entry for the user wins over an entry for
 * their workspace role, which wins over the baseline; in a restricted space
 * there is no baseline (only listed users and roles get in). Workspace
 * owners and admins are always space admins, so no space can be locked.
 *
 * Page restrictions narrow the space role for a page and its whole subtree:
 * "edit" lets everyone in the space read but only listed users/roles edit;
 * "view" lets only listed users/roles read (or edit, with an edit entry).
 * Space admins pass every restriction (they can always lift one).
 */
import { Schema } from "effect"
import type { Role } from "../identity/Workspace.ts"

export const SpaceRole = Schema.Literals(["admin", "editor", "viewer"]).annotate({
  description: "admin: manage the space and its permissions; editor: create and edit pages; viewer: read and comment"
})
export type SpaceRole = typeof SpaceRole.Type

export const SpaceVisibility = Schema.Literals(["workspace", "restricted"]).annotate({
  description: "workspace: every workspace member gets their baseline role; restricted: only listed users and roles (and workspace admins)"
})
export type SpaceVisibility = typeof SpaceVisibility.Type

/** The workspace roles a permission entry can name (the owner counts as admin). */
export const WorkspaceRoleSubject = Schema.Literals(["admin", "member", "viewer"])
export type WorkspaceRoleSubject = typeof WorkspaceRoleSubject.Type

export const PageRestriction = Schema.Literals(["open", "edit", "view"]).annotate({
  description:
    "open: the space's rules apply; edit: everyone in the space may view, only listed users/roles edit; view: only listed users/roles view (or edit)"
})
export type PageRestriction = typeof PageRestriction.Type

export const PageAccessLevel = Schema.Literals(["view", "edit"])
export type PageAccessLevel = typeof PageAccessLevel.Type

/** What a caller may do with a page (and its live document). */
export type PageRight = "edit" | "read" | "none"

export interface PermissionSubject {
  readonly userId: string | null
  readonly workspaceRole: WorkspaceRoleSubject | null
}

export interface SpaceEntry extends PermissionSubject {
  readonly role: SpaceRole
}

export interface PageEntry extends PermissionSubject {
  readonly access: PageAccessLevel
}

const spaceRank: Record<SpaceRole, number> = { viewer: 1, editor: 2, admin: 3 }
export const spaceRoleAtLeast = (role: SpaceRole, minimum: SpaceRole): boolean => spaceRank[role] >= spaceRank[minimum]

const rightRank: Record<PageRight, number> = { none: 0, read: 1, edit: 2 }
export const rightAtLeast = (right: PageRight, minimum: PageRight): boolean => rightRank[right] >= rightRank[minimum]
const lower = (a: PageRight, b: PageRight): PageRight => (rightRank[a] <= rightRank[b] ? a : b)

export const baselineRole = (workspaceRole: Role): SpaceRole =>
  workspaceRole === "owner" || workspaceRole === "admin" ? "admin" : workspaceRole === "member" ? "editor" : "viewer"

/** The workspace role as a permission subject names it. */
export const subjectRoleOf = (workspaceRole: Role): WorkspaceRoleSubject => (workspaceRole === "owner" ? "admin" : workspaceRole)

/** The caller's role in a space, or `undefined` when they may not see it. */
export const spaceRoleOf = (input: {
  readonly userId: string
  readonly workspaceRole: Role | undefined
  readonly visibility: SpaceVisibility
  readonly entries: ReadonlyArray<SpaceEntry>
}): SpaceRole | undefined => {
  const { userId, workspaceRole, visibility, entries } = input
  if (workspaceRole === undefined) return undefined
  if (workspaceRole === "owner" || workspaceRole === "admin") return "admin"
  const own = entries.find((entry) => entry.userId === userId)
  if (own) return own.role
  const byRole = entries.find((entry) => entry.workspaceRole === subjectRoleOf(workspaceRole))
  if (byRole) return byRole.role
  return visibility === "restricted" ? undefined : baselineRole(workspaceRole)
}

export interface RestrictedNode {
  readonly restriction: PageRestriction
  readonly entries: ReadonlyArray<PageEntry>
}

/** The best access the entries give the caller (user and role entries add up). */
const grantOf = (entries: ReadonlyArray<PageEntry>, userId: string, workspaceRole: Role): PageAccessLevel | undefined => {
  const role = subjectRoleOf(workspaceRole)
  const matching = entries.filter((entry) => entry.userId === userId || entry.workspaceRole === role)
  if (matching.some((entry) => entry.access === "edit")) return "edit"
  return matching.length > 0 ? "view" : undefined
}

/**
 * The caller's right on a page, given their space role and the restrictions
 * on the page and its ancestors (`chain`, any order: every one applies).
 */
export const pageRightOf = (input: {
  readonly userId: string
  readonly workspaceRole: Role
  readonly spaceRole: SpaceRole | undefined
  readonly chain: ReadonlyArray<RestrictedNode>
}): PageRight => {
  const { userId, workspaceRole, spaceRole, chain } = input
  if (spaceRole === undefined) return "none"
  if (spaceRole === "admin") return "edit"
  let right: PageRight = spaceRole === "editor" ? "edit" : "read"
  for (const node of chain) {
    if (node.restriction === "open") continue
    const grant = grantOf(node.entries, userId, workspaceRole)
    if (node.restriction === "view") {
      right = grant === undefined ? "none" : lower(right, grant === "edit" ? "edit" : "read")
    } else if (grant !== "edit") {
      right = lower(right, "read")
    }
    if (right === "none") return right
  }
  return right
}

/** An API key acts with its creator's rights, capped by its scopes. */
export const capByScopes = (right: PageRight, scopes: ReadonlyArray<string> | undefined): PageRight => {
  if (scopes === undefined) return right
  if (!scopes.includes("wiki:read") && !scopes.includes("wiki:write")) return "none"
  return scopes.includes("wiki:write") ? right : lower(right, "read")
}
