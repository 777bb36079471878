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

/** The reader's parameters as SQL placeholders `$first`…`$first+3`, and their values. */
const placeholders = (reader: Reader, first: number) => {
  const [ws, user, role, admin] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`) as [string, string, string, string]
  return { ws, user, role, admin, params: [reader.workspaceId, reader.userId, subjectRoleOf(reader.role), atLeast(reader.role, "admin")] as const }
}

type Placeholders = ReturnType<typeof placeholders>

/** SQL condition: page `p` itself hides its subtree from the reader (archived, or restricted to "view" without an entry for them). */
const hiding = (p: string, { user, role, admin }: Placeholders) => {
  const spaceAdmin = `EXISTS (SELECT 1 FROM wiki_space_permissions sp WHERE sp.space_id = ${p}.space_id AND sp.role = 'admin'
       AND (sp.user_id = ${user} OR (sp.workspace_role = ${role}
         AND NOT EXISTS (SELECT 1 FROM wiki_space_permissions own WHERE own.space_id = ${p}.space_id AND own.user_id = ${user}))))`
  return `(${p}.archived_at IS NOT NULL
              OR (${p}.restriction = 'view' AND NOT ${admin} AND NOT ${spaceAdmin}
                  AND NOT EXISTS (SELECT 1 FROM wiki_page_permissions pp
                                   WHERE pp.page_id = ${p}.id AND (pp.user_id = ${user} OR pp.workspace_role = ${role}))))`
}

const visibleSpaces = ({ ws, user, role, admin }: Placeholders) => `
    visible_spaces AS (
      SELECT s.* FROM wiki_spaces s
       WHERE s.workspace_id = ${ws} AND s.archived_at IS NULL
         AND (${admin} OR s.visibility <> 'restricted'
              OR EXISTS (SELECT 1 FROM wiki_space_permissions sp
                          WHERE sp.space_id = s.id AND (sp.user_id = ${user} OR sp.workspace_role = ${role})))
    )`

/**
 * Common table expressions `visible_spaces` and `visible_pages` (all columns
 * of wiki_spaces / wiki_pages) for `reader`, using parameters `$first`…`$first+3`.
 * Use as `WITH RECURSIVE ${v.ctes} SELECT … FROM visible_pages p …` with `[...own, ...v.params]`.
 * The hidden subtrees are found from their roots down (migration 070 indexes
 * both steps), so this suits reads that look at much of a workspace; to
 * narrow a few pages found by an index, use `visibleAmong`.
 */
export const visibleTo = (reader: Reader, first: number) => {
  const at = placeholders(reader, first)
  const ctes = `
    hidden_pages(id) AS (
      SELECT p.id FROM wiki_pages p
       WHERE p.workspace_id = ${at.ws} AND ${hiding("p", at)}
      UNION
      SELECT c.id FROM wiki_pages c JOIN hidden_pages h ON c.parent_id = h.id
    ),${visibleSpaces(at)},
    visible_pages AS (
      SELECT p.* FROM wiki_pages p
       WHERE p.space_id IN (SELECT id FROM visible_spaces) AND NOT EXISTS (SELECT 1 FROM hidden_pages h WHERE h.id = p.id)
    )`
  return { ctes, params: at.params }
}

/**
 * Common table expressions `visible_spaces` and `visible_matches`: the rows of
 * the CTE `source` (a set of wiki_pages rows, e.g. the hits of an index) that
 * `reader` may see, by walking each one's ancestors, so the cost follows the
 * size of `source`, not of the workspace. Same rules and parameters as `visibleTo`.
 */
export const visibleAmong = (reader: Reader, first: number, source: string) => {
  const at = placeholders(reader, first)
  const ctes = `${visibleSpaces(at)},
    ancestry(page_id, id) AS (
      SELECT m.id, m.id FROM ${source} m
      UNION
      SELECT a.page_id, p.parent_id FROM ancestry a JOIN wiki_pages p ON p.id = a.id WHERE p.parent_id IS NOT NULL
    ),
    visible_matches AS (
      SELECT m.* FROM ${source} m
       WHERE m.space_id IN (SELECT id FROM visible_spaces)
         AND NOT EXISTS (SELECT 1 FROM ancestry a JOIN wiki_pages h ON h.id = a.id WHERE a.page_id = m.id AND ${hiding("h", at)})
    )`
  return { ctes, params: at.params }
}
