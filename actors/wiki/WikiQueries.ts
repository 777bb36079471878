/**
 * Reads of wiki rows (spaces, pages, permission entries) and of the
 * workspace membership they hang off. The wiki actors write these rows
 * before they reply, so a read after a write sees it.
 */
import { Effect, Schema } from "effect"
import { memberRoles } from "../identity/IdentityQueries.ts"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import type { PagePermissionRow, PageRow, SpacePermissionRow, SpaceRow } from "./WikiRecords.ts"
import type { PageAccessLevel, SpaceRole, WorkspaceRoleSubject } from "./WikiRoles.ts"

export type { PagePermissionRow, PageRow, SpacePermissionRow, SpaceRow }

/** Timestamps come back as Date (both backends) or string; the API speaks ISO-8601. */
export const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString())
export const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value))

export const SPACE_COLUMNS =
  "id, workspace_id, key, name, description, icon, visibility, is_public, home_page_id, created_by, created_at, updated_at, archived_at"
export const PAGE_COLUMNS =
  "id, space_id, workspace_id, parent_id, title, slug, icon, cover_image, position, restriction, created_by, updated_by, created_at, updated_at, archived_at"

type RawRow = Record<string, any>

export const toSpace = (row: RawRow): SpaceRow => ({
  id: row.id,
  workspaceId: row.workspace_id,
  key: row.key,
  name: row.name,
  description: row.description,
  icon: row.icon ?? null,
  visibility: row.visibility,
  isPublic: Boolean(row.is_public),
  homePageId: row.home_page_id ?? null,
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  archivedAt: isoOrNull(row.archived_at)
})

export const toPage = (row: RawRow): PageRow => ({
  id: row.id,
  spaceId: row.space_id,
  workspaceId: row.workspace_id,
  parentId: row.parent_id ?? null,
  title: row.title,
  slug: row.slug,
  icon: row.icon ?? null,
  coverImage: row.cover_image ?? null,
  position: Number(row.position),
  restriction: row.restriction,
  createdBy: row.created_by,
  updatedBy: row.updated_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  archivedAt: isoOrNull(row.archived_at)
})

const toSpacePermission = (row: RawRow): SpacePermissionRow => ({
  id: row.id,
  spaceId: row.space_id,
  userId: row.user_id ?? null,
  workspaceRole: (row.workspace_role ?? null) as WorkspaceRoleSubject | null,
  role: row.role as SpaceRole,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

const toPagePermission = (row: RawRow): PagePermissionRow => ({
  id: row.id,
  pageId: row.page_id,
  userId: row.user_id ?? null,
  workspaceRole: (row.workspace_role ?? null) as WorkspaceRoleSubject | null,
  access: row.access as PageAccessLevel,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

/** Members of a workspace (user id → workspace role). */
export const workspaceMembers = memberRoles

export const spaceById = (spaceId: string) =>
  Effect.map(query<RawRow>(`SELECT ${SPACE_COLUMNS} FROM wiki_spaces WHERE id = $1`, [spaceId]), (rows) =>
    rows[0] ? toSpace(rows[0]) : undefined
  )

export const spaceByKey = (workspaceId: string, key: string) =>
  Effect.map(
    query<RawRow>(`SELECT ${SPACE_COLUMNS} FROM wiki_spaces WHERE workspace_id = $1 AND lower(key) = lower($2)`, [workspaceId, key]),
    (rows) => (rows[0] ? toSpace(rows[0]) : undefined)
  )

export const spacesOfWorkspace = (workspaceId: string) =>
  Effect.map(
    query<RawRow>(`SELECT ${SPACE_COLUMNS} FROM wiki_spaces WHERE workspace_id = $1 ORDER BY lower(name), id`, [workspaceId]),
    (rows) => rows.map(toSpace)
  )

export const spacePermissions = (spaceId: string) =>
  Effect.map(query<RawRow>("SELECT * FROM wiki_space_permissions WHERE space_id = $1 ORDER BY created_at, id", [spaceId]), (rows) =>
    rows.map(toSpacePermission)
  )

/** Permission entries of many spaces at once, by space id. */
export const spacePermissionsOf = (spaceIds: ReadonlyArray<string>) =>
  Effect.map(
    query<RawRow>("SELECT * FROM wiki_space_permissions WHERE space_id = ANY($1::text[]) ORDER BY created_at, id", [spaceIds]),
    (rows) => {
      const bySpace = new Map<string, Array<SpacePermissionRow>>()
      for (const row of rows.map(toSpacePermission)) bySpace.set(row.spaceId, [...(bySpace.get(row.spaceId) ?? []), row])
      return bySpace
    }
  )

export const pageById = (pageId: string) =>
  Effect.map(query<RawRow>(`SELECT ${PAGE_COLUMNS} FROM wiki_pages WHERE id = $1`, [pageId]), (rows) =>
    rows[0] ? toPage(rows[0]) : undefined
  )

/** The page then its ancestors, nearest first (empty when there is no such page). */
export const pageChainOf = (pageId: string) =>
  Effect.map(
    query<RawRow & { depth: number }>(
      `WITH RECURSIVE chain AS (
         SELECT p.*, 0 AS depth FROM wiki_pages p WHERE p.id = $1
         UNION ALL
         SELECT parent.*, chain.depth + 1 FROM wiki_pages parent JOIN chain ON parent.id = chain.parent_id WHERE chain.depth < 1000
       )
       SELECT ${PAGE_COLUMNS}, depth FROM chain ORDER BY depth`,
      [pageId]
    ),
    (rows) => rows.map(toPage)
  )

/** Every page of a space (archived ones too), in tree order of siblings. */
export const pagesOfSpace = (spaceId: string) =>
  Effect.map(
    query<RawRow>(`SELECT ${PAGE_COLUMNS} FROM wiki_pages WHERE space_id = $1 ORDER BY position, created_at, id`, [spaceId]),
    (rows) => rows.map(toPage)
  )

export const pagePermissions = (pageId: string) =>
  Effect.map(query<RawRow>("SELECT * FROM wiki_page_permissions WHERE page_id = $1 ORDER BY created_at, id", [pageId]), (rows) =>
    rows.map(toPagePermission)
  )

/** Page permission entries of many pages at once, by page id. */
export const pagePermissionsOf = (pageIds: ReadonlyArray<string>) =>
  Effect.map(
    pageIds.length === 0
      ? Effect.succeed([] as ReadonlyArray<RawRow>)
      : query<RawRow>("SELECT * FROM wiki_page_permissions WHERE page_id = ANY($1::text[]) ORDER BY created_at, id", [pageIds]),
    (rows) => {
      const byPage = new Map<string, Array<PagePermissionRow>>()
      for (const row of rows.map(toPagePermission)) byPage.set(row.pageId, [...(byPage.get(row.pageId) ?? []), row])
      return byPage
    }
  )

/** Ids of the page and all its descendants (archived ones too). */
export const subtreeIds = (pageId: string) =>
  Effect.map(
    query<{ id: string }>(
      `WITH RECURSIVE tree AS (
         SELECT id, 0 AS depth FROM wiki_pages WHERE id = $1
         UNION ALL
         SELECT child.id, tree.depth + 1 FROM wiki_pages child JOIN tree ON child.parent_id = tree.id WHERE tree.depth < 1000
       )
       SELECT id FROM tree ORDER BY depth`,
      [pageId]
    ),
    (rows) => rows.map((row) => row.id)
  )

const countPageThings = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ comments: Schema.Number, openThreads: Schema.Number, attachments: Schema.Number }),
  execute: (pageId) => [
    `SELECT (SELECT count(*)::int FROM wiki_comments WHERE page_id = $1 AND deleted_at IS NULL) AS comments,
            (SELECT count(*)::int FROM wiki_comments WHERE page_id = $1 AND parent_id IS NULL AND resolved_at IS NULL AND deleted_at IS NULL) AS "openThreads",
            (SELECT count(*)::int FROM wiki_attachments WHERE page_id = $1) AS attachments`,
    [pageId]
  ]
})

/** A page's (not deleted) comments, open threads and attachments. */
export const pageCounts = (pageId: string) =>
  Effect.map(countPageThings(pageId), (row) => row ?? { comments: 0, openThreads: 0, attachments: 0 })

const findVersionAuthors = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ userId: Schema.String }),
  execute: (pageId) => [
    `SELECT DISTINCT author_id AS "userId" FROM wiki_page_versions WHERE page_id = $1 AND author_id IS NOT NULL
     UNION SELECT DISTINCT jsonb_array_elements_text(contributors) FROM wiki_page_versions WHERE page_id = $1`,
    [pageId]
  ]
})

/** Everyone who authored or contributed to a saved version of the page. */
export const versionAuthors = (pageId: string) => Effect.map(findVersionAuthors(pageId), (rows) => rows.map((row) => row.userId))

const findLinkSources = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ id: Schema.String }),
  execute: (pageId) => ["SELECT source_page_id AS id FROM wiki_page_links WHERE target_page_id = $1", [pageId]]
})

/** The pages that link to `pageId` (any state: callers check what they may see). */
export const linkSources = (pageId: string) => Effect.map(findLinkSources(pageId), (rows) => rows.map((row) => row.id))
