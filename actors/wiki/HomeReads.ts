/**
 * A reader's wiki at a glance, only what they may read (`visibleTo`): the
 * spaces with their page counts, their favorites, the pages they viewed or
 * edited lately, what changed lately across the workspace, and every page
 * they may read (for Lens).
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Role } from "../identity/Workspace.ts"
import { pageRefOf } from "./DiscoveryViews.ts"
import { type Reader, visibleTo } from "./VisiblePages.ts"

const ReaderSchema = Schema.Struct({ workspaceId: Schema.String, userId: Schema.String, role: Role })
const Listing = Schema.Struct({ reader: ReaderSchema, limit: Schema.Number })

/** A page with its space, as the rows below select it (`pageRefOf` turns it into a PageRef). */
const PageRow = {
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  space_id: Schema.String,
  space_key: Schema.String,
  space_name: Schema.String
}
const pageColumns = "p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name"

// Each listing names the reader as $1 and its length as $2; the visibility CTEs follow.
const findFavorites = SqlSchema.findAll({
  Request: Listing,
  Result: Schema.Struct({ ...PageRow, added_at: Schema.String }),
  execute: ({ reader, limit }) => {
    const visible = visibleTo(reader, 3)
    return [
      `WITH RECURSIVE ${visible.ctes}
       SELECT ${pageColumns}, f.created_at AS added_at
         FROM wiki_favorites f JOIN visible_pages p ON p.id = f.page_id JOIN wiki_spaces s ON s.id = p.space_id
        WHERE f.user_id = $1
        ORDER BY f.created_at DESC, p.id LIMIT $2`,
      [reader.userId, limit, ...visible.params]
    ]
  }
})

/** The reader's favorites in the workspace that they may read, newest first. */
export const favoritesOf = (reader: Reader, limit: number) =>
  Effect.map(findFavorites({ reader, limit }), (rows) => rows.map((row) => ({ ...pageRefOf(row), addedAt: row.added_at })))

const findViewed = SqlSchema.findAll({
  Request: Listing,
  Result: Schema.Struct({ ...PageRow, viewed_at: Schema.String }),
  execute: ({ reader, limit }) => {
    const visible = visibleTo(reader, 3)
    return [
      `WITH RECURSIVE ${visible.ctes}
       SELECT ${pageColumns}, v.viewed_at
         FROM (SELECT page_id, max(viewed_at) AS viewed_at FROM wiki_page_views WHERE user_id = $1 GROUP BY page_id) v
         JOIN visible_pages p ON p.id = v.page_id JOIN wiki_spaces s ON s.id = p.space_id
        ORDER BY v.viewed_at DESC, p.id LIMIT $2`,
      [reader.userId, limit, ...visible.params]
    ]
  }
})

/** The pages the reader viewed lately, last viewed first. */
export const recentlyViewed = (reader: Reader, limit: number) =>
  Effect.map(findViewed({ reader, limit }), (rows) => rows.map((row) => ({ ...pageRefOf(row), viewedAt: row.viewed_at })))

const findEdited = SqlSchema.findAll({
  Request: Listing,
  Result: Schema.Struct({ ...PageRow, edited_at: Schema.String }),
  execute: ({ reader, limit }) => {
    const visible = visibleTo(reader, 3)
    return [
      `WITH RECURSIVE ${visible.ctes}
       SELECT ${pageColumns}, e.edited_at
         FROM (SELECT page_id, max(minute) AS edited_at FROM wiki_page_edits WHERE user_id = $1 GROUP BY page_id) e
         JOIN visible_pages p ON p.id = e.page_id JOIN wiki_spaces s ON s.id = p.space_id
        ORDER BY e.edited_at DESC, p.id LIMIT $2`,
      [reader.userId, limit, ...visible.params]
    ]
  }
})

/** The pages the reader edited lately, last edited first. */
export const recentlyEdited = (reader: Reader, limit: number) =>
  Effect.map(findEdited({ reader, limit }), (rows) => rows.map((row) => ({ ...pageRefOf(row), editedAt: row.edited_at })))

const findUpdated = SqlSchema.findAll({
  Request: Listing,
  Result: Schema.Struct({ ...PageRow, updated_at: Schema.String, updated_by: Schema.String }),
  execute: ({ reader, limit }) => {
    const visible = visibleTo(reader, 2)
    return [
      `WITH RECURSIVE ${visible.ctes}
       SELECT ${pageColumns}, p.updated_at, p.updated_by
         FROM visible_pages p JOIN wiki_spaces s ON s.id = p.space_id
        ORDER BY p.updated_at DESC, p.id LIMIT $1`,
      [limit, ...visible.params]
    ]
  }
})

/** The pages the reader may read, last updated first, with who updated them (user id). */
export const recentlyUpdated = (reader: Reader, limit: number) =>
  Effect.map(findUpdated({ reader, limit }), (rows) =>
    rows.map((row) => ({ ...pageRefOf(row), updatedAt: row.updated_at, updatedBy: row.updated_by }))
  )

const findSpaceCards = SqlSchema.findAll({
  Request: ReaderSchema,
  Result: Schema.Struct({
    id: Schema.String,
    key: Schema.String,
    name: Schema.String,
    icon: Schema.NullOr(Schema.String),
    pageCount: Schema.Number,
    lastUpdatedAt: Schema.NullOr(Schema.String)
  }),
  execute: (reader) => {
    const visible = visibleTo(reader, 1)
    return [
      `WITH RECURSIVE ${visible.ctes}
       SELECT s.id, s.key, s.name, s.icon,
              (SELECT count(*) FROM visible_pages p WHERE p.space_id = s.id)::int AS "pageCount",
              (SELECT max(p.updated_at) FROM visible_pages p WHERE p.space_id = s.id) AS "lastUpdatedAt"
         FROM visible_spaces s ORDER BY lower(s.name), s.id`,
      visible.params
    ]
  }
})

/** The spaces the reader may see, by name, with how many pages they may read in each and when the latest changed. */
export const spaceCards = (reader: Reader) => findSpaceCards(reader)

const findFavoriteWorkspace = SqlSchema.findOne({
  Request: Schema.Struct({ userId: Schema.String, pageId: Schema.String }),
  Result: Schema.Struct({ workspaceId: Schema.String }),
  execute: (r) => [`SELECT workspace_id AS "workspaceId" FROM wiki_favorites WHERE user_id = $1 AND page_id = $2`, [r.userId, r.pageId]]
})

/** The workspace of the user's favorite page, if it is one of their favorites. */
export const favoriteWorkspace = (userId: string, pageId: string) =>
  Effect.map(findFavoriteWorkspace({ userId, pageId }), (row) => row?.workspaceId)

const findVisiblePages = SqlSchema.findAll({
  Request: ReaderSchema,
  Result: Schema.Struct({ id: Schema.String }),
  execute: (reader) => {
    const visible = visibleTo(reader, 1)
    return [`WITH RECURSIVE ${visible.ctes} SELECT p.id FROM visible_pages p`, visible.params]
  }
})

/** Every page of the workspace the reader may read. */
export const pagesVisibleTo = (reader: Reader) => Effect.map(findVisiblePages(reader), (rows) => new Set(rows.map((row) => row.id)))
