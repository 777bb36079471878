/**
 * Which spaces and pages a caller may read, as SQL, for the discovery reads
 * that list many pages at once (search, dashboards, home, export). It states
 * the rules of `WikiRoles.ts` set-wise:
 *
 * - a space is visible to workspace owners/admins, to anyone with an entry in
 *   its permissions (their own or their workspace role's), and otherwise only
 *   when it is not restricted; archived spaces are not visible;
 * - a page is hidden when it or an ancestor is archived, or when it or an
 *   ancestor is restricted to "view" and the caller has no entry on that
 *   page — unless the caller is an admin of the space (space admins pass
 *   every restriction).
 */
import { Effect } from "effect"
import { type Role, atLeast } from "../identity/Workspace.ts"
import { type WikiCaller, workspaceAccess } from "./WikiAccess.ts"
import { subjectRoleOf } from "./WikiRoles.ts"

/** A caller reading one workspace's wiki. */
export interface Reader {
  readonly workspaceId: string
  readonly userId: string
  readonly role: Role
}

/** The caller as a reader of `workspaceId`: 404 when they may not see it, 403 below `minimum`. */
export const readerOf = (caller: WikiCaller, workspaceId: string, minimum: Role = "viewer") =>
  Effect.map(workspaceAccess(caller, workspaceId, minimum), (role): Reader => ({ workspaceId, userId: caller.userId, role }))

/**
 * Common table expressions `visible_spaces` and `visible_pages` (all columns
 * of wiki_spaces / wiki_pages) for `reader`, using parameters `$first`…`$first+3`.
 * Use as `WITH RECURSIVE ${v.ctes} SELECT … FROM visible_pages p …` with `[...own, ...v.params]`.
 */
export const visibleTo = (reader: Reader, first: number) => {
  const [ws, user, role, admin] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`)
  const spaceAdmin = (space: string) =>
    `EXISTS (SELECT 1 FROM wiki_space_permissions sp WHERE sp.space_id = ${space} AND sp.role = 'admin'
       AND (sp.user_id = ${user} OR (sp.workspace_role = ${role}
         AND NOT EXISTS (SELECT 1 FROM wiki_space_permissions own WHERE own.space_id = ${space} AND own.user_id = ${user}))))`
  const ctes = `
    hidden_pages(id) AS (
      SELECT p.id FROM wiki_pages p
       WHERE p.workspace_id = ${ws}
         AND (p.archived_at IS NOT NULL
              OR (p.restriction = 'view' AND NOT ${admin} AND NOT ${spaceAdmin("p.space_id")}
                  AND NOT EXISTS (SELECT 1 FROM wiki_page_permissions pp
                                   WHERE pp.page_id = p.id AND (pp.user_id = ${user} OR pp.workspace_role = ${role}))))
      UNION
      SELECT c.id FROM wiki_pages c JOIN hidden_pages h ON c.parent_id = h.id
    ),
    visible_spaces AS (
      SELECT s.* FROM wiki_spaces s
       WHERE s.workspace_id = ${ws} AND s.archived_at IS NULL
         AND (${admin} OR s.visibility <> 'restricted'
              OR EXISTS (SELECT 1 FROM wiki_space_permissions sp
                          WHERE sp.space_id = s.id AND (sp.user_id = ${user} OR sp.workspace_role = ${role})))
    ),
    visible_pages AS (
      SELECT p.* FROM wiki_pages p
       WHERE p.space_id IN (SELECT id FROM visible_spaces) AND p.id NOT IN (SELECT id FROM hidden_pages)
    )`
  return { ctes, params: [reader.workspaceId, reader.userId, subjectRoleOf(reader.role), atLeast(reader.role, "admin")] as const }
}
