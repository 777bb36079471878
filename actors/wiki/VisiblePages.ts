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
  return {
    ws,
    user,
    role,
    admin,
    params: [reader.workspaceId, reader.userId, subjectRoleOf(reader.role), atLeast(reader.role, "admin")] as const
  }
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
      SELECT c.id FROM hidden_pages h CROSS JOIN LATERAL (SELECT c.id FROM wiki_pages c WHERE c.parent_id = h.id OFFSET 0) c
    ),${visibleSpaces(at)},
    visible_pages AS (
      SELECT p.* FROM wiki_pages p
       WHERE p.space_id IN (SELECT id FROM visible_spaces) AND NOT EXISTS (SELECT 1 FROM hidden_pages h WHERE h.id = p.id)
    )`
  return { ctes, params: at.params }
}

/**
 * Common table expressions `visible_spaces` and `visible_matches`: the pages
 * among the rows of the CTE `source` (wiki_pages rows, e.g. the hits of an
 * index) that `reader` may see, all columns of wiki_pages. Each row's
 * ancestors are walked up until one hides it, so the cost follows the size of
 * `source`, not of the workspace; the walk carries its verdict, and the rows
 * are fetched back by primary key, so no plan joins the walk to itself.
 * (The LATERAL subqueries keep each step a lookup by key: the planner cannot
 * estimate a recursion's size and would otherwise hash the whole table.)
 * Same rules and parameters as `visibleTo`.
 */
export const visibleAmong = (reader: Reader, first: number, source: string) => {
  const at = placeholders(reader, first)
  const ctes = `${visibleSpaces(at)},
    ancestry(page_id, parent_id, hidden) AS (
      SELECT m.id, m.parent_id, ${hiding("m", at)} FROM ${source} m
      UNION
      SELECT a.page_id, p.parent_id, ${hiding("p", at)}
        FROM ancestry a CROSS JOIN LATERAL (SELECT * FROM wiki_pages p WHERE p.id = a.parent_id LIMIT 1) p
       WHERE NOT a.hidden
    ),
    visible_matches AS (
      SELECT p.* FROM wiki_pages p
       WHERE p.id IN (SELECT page_id FROM ancestry GROUP BY page_id HAVING NOT bool_or(hidden))
         AND p.space_id IN (SELECT id FROM visible_spaces)
    )`
  return { ctes, params: at.params }
}
