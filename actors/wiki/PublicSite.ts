/**
 * A space's public wiki: whether it is published, at which URL slug, how it
 * looks (title, logo, colors, footer), what visitors may do (search, be
 * indexed by search engines), and which pages are shared publicly one by one.
 * One actor per space id serializes these changes; its state is its rows
 * (`wiki_public_sites`, `wiki_public_shares`) plus the two flags it mirrors
 * into the editing tables — `wiki_spaces.is_public` (site published) and
 * `wiki_pages.is_published` (page shared) — so nothing else writes those.
 * Who may ask (space admins) is checked by the caller.
 */
import { Effect, Schema } from "effect"
import { orDieSql, Sql, type SqlError, query } from "../../persistence/Sql.ts"
import {
  PublicShareNotFound,
  PublicWikiNoFreeSlug,
  PublicWikiSlugTaken,
  WikiPageArchived,
  WikiPageNotInSpace,
  WikiSpaceArchived,
  WikiSpaceNotFound
} from "./WikiErrors.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Actor } from "../../runtime/Actor.ts"
import { slugify } from "./Slug.ts"
import { HexColor, HttpsUrl } from "./WikiSettings.ts"
import { invalidateSpaces } from "./WikiStaleness.ts"

const NullableString = Schema.NullOr(Schema.String)

/** The first segment of a public wiki's URL path: lower-case letters, digits and dashes; never a UUID or a reserved word. */
export const SiteSlug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, {
    expected: "1-64 lower-case letters, digits or dashes, not starting or ending with a dash"
  }),
  Schema.isPattern(/^(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)(?!(share|api|public|v1)$)/, {
    expected: "a slug that is neither a UUID nor reserved (share, api, public, v1)"
  })
)

/** Path segments public URLs use for themselves. */
const RESERVED = new Set(["share", "api", "public", "v1"])

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

export const PublicSiteView = Schema.Struct({
  spaceId: Schema.String,
  workspaceId: Schema.String,
  enabled: Schema.Boolean.annotate({ description: "Whether the space is published as a public wiki" }),
  slug: Schema.String.annotate({ description: "First segment of the public URL path (`/{slug}/{pageSlug}`)" }),
  path: Schema.String.annotate({ description: "The public wiki's path, `/{slug}`" }),
  title: NullableString.annotate({ description: "Shown instead of the space name" }),
  description: NullableString,
  logoUrl: NullableString,
  accentColor: NullableString,
  footerText: NullableString,
  allowSearch: Schema.Boolean.annotate({ description: "Visitors may search the public wiki" }),
  allowIndexing: Schema.Boolean.annotate({ description: "Search engines may index it (listed in the sitemap)" }),
  showAuthors: Schema.Boolean.annotate({ description: "Pages show their author's name" }),
  showLastUpdated: Schema.Boolean.annotate({ description: "Pages show when they were last updated" }),
  enabledAt: NullableString,
  updatedBy: NullableString,
  updatedAt: NullableString
}).annotate({ identifier: "PublicWikiSettings" })
export type PublicSiteView = typeof PublicSiteView.Type

export const PublicSitePatch = Schema.Struct({
  slug: Schema.optionalKey(SiteSlug),
  title: Schema.optionalKey(Schema.NullOr(Text(200))),
  description: Schema.optionalKey(Schema.NullOr(Text(2000))),
  logoUrl: Schema.optionalKey(Schema.NullOr(HttpsUrl)),
  accentColor: Schema.optionalKey(Schema.NullOr(HexColor)),
  footerText: Schema.optionalKey(Schema.NullOr(Text(1000))),
  allowSearch: Schema.optionalKey(Schema.Boolean),
  allowIndexing: Schema.optionalKey(Schema.Boolean),
  showAuthors: Schema.optionalKey(Schema.Boolean),
  showLastUpdated: Schema.optionalKey(Schema.Boolean)
})
export type PublicSitePatch = typeof PublicSitePatch.Type

export const PublicShare = Schema.Struct({
  pageId: Schema.String,
  includeSubpages: Schema.Boolean.annotate({ description: "The page's whole subtree is shared with it" }),
  sharedBy: Schema.String,
  sharedAt: Schema.String
}).annotate({ identifier: "PublicWikiShare" })
export type PublicShare = typeof PublicShare.Type

type Row = Record<string, any>

const COLUMNS: Record<string, string> = {
  slug: "slug",
  title: "title",
  description: "description",
  logoUrl: "logo_url",
  accentColor: "accent_color",
  footerText: "footer_text",
  allowSearch: "allow_search",
  allowIndexing: "allow_indexing",
  showAuthors: "show_authors",
  showLastUpdated: "show_last_updated"
}

export const siteViewOf = (space: { id: string; workspaceId: string; key: string }, row: Row | undefined): PublicSiteView => {
  const slug: string = row?.slug ?? (RESERVED.has(slugify(space.key)) ? `${slugify(space.key)}-wiki` : slugify(space.key))
  return {
    spaceId: space.id,
    workspaceId: space.workspaceId,
    enabled: row?.enabled ?? false,
    slug,
    path: `/${slug}`,
    title: row?.title ?? null,
    description: row?.description ?? null,
    logoUrl: row?.logo_url ?? null,
    accentColor: row?.accent_color ?? null,
    footerText: row?.footer_text ?? null,
    allowSearch: row?.allow_search ?? true,
    allowIndexing: row?.allow_indexing ?? true,
    showAuthors: row?.show_authors ?? false,
    showLastUpdated: row?.show_last_updated ?? true,
    enabledAt: row?.enabled_at ?? null,
    updatedBy: row?.updated_by ?? null,
    updatedAt: row?.updated_at ?? null
  }
}

export const siteRowOf = (spaceId: string) =>
  Effect.map(query("SELECT * FROM wiki_public_sites WHERE space_id = $1", [spaceId]), (rows) => rows[0])

export const toShare = (row: Row): PublicShare => ({
  pageId: row.page_id,
  includeSubpages: row.include_subpages,
  sharedBy: row.shared_by,
  sharedAt: row.shared_at
})

const transaction = <A, E, R>(body: Effect.Effect<A, E, R>) => Sql.use((sql) => sql.transaction(body))

const spaceOf = (spaceId: string) =>
  Effect.flatMap(
    query<{ id: string; workspace_id: string; key: string; archived_at: string | null }>(
      "SELECT id, workspace_id, key, archived_at FROM wiki_spaces WHERE id = $1",
      [spaceId]
    ),
    (rows) =>
      rows[0] === undefined
        ? Effect.fail(new WikiSpaceNotFound())
        : Effect.succeed({ id: rows[0].id, workspaceId: rows[0].workspace_id, key: rows[0].key, archivedAt: rows[0].archived_at })
  )

/** A free slug based on the space key: `key`, else `key-2`, `key-3`… */
const freeSlug = (key: string) => {
  const base = RESERVED.has(slugify(key)) ? `${slugify(key)}-wiki` : slugify(key)
  return Effect.map(
    query<{ slug: string }>("SELECT lower(slug) AS slug FROM wiki_public_sites WHERE lower(slug) = $1 OR lower(slug) LIKE $1 || '-%'", [
      base
    ]),
    (rows) => {
      const taken = new Set(rows.map((row) => row.slug))
      if (!taken.has(base)) return base
      for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
    }
  )
}

/**
 * The site row, created (disabled, with a free slug) when the space has none
 * yet. Another space's actor may take the same free slug at the same moment:
 * then pick again (ON CONFLICT, so the surrounding transaction stays usable).
 */
const ensureRow = (space: { id: string; workspaceId: string; key: string }, by: string) =>
  Effect.gen(function* () {
    const existing = yield* siteRowOf(space.id)
    if (existing !== undefined) return existing
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = yield* freeSlug(space.key)
      const rows = yield* query(
        `INSERT INTO wiki_public_sites (space_id, workspace_id, slug, updated_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING *`,
        [space.id, space.workspaceId, slug, by]
      )
      if (rows[0] !== undefined) return rows[0]
    }
    return yield* new PublicWikiNoFreeSlug()
  })

const slugClash = (error: SqlError): Effect.Effect<never, PublicWikiSlugTaken | SqlError> =>
  error.code === "23505" ? Effect.fail(new PublicWikiSlugTaken()) : Effect.fail(error)

const setEnabled = (spaceId: string, by: string, enabled: boolean) =>
  Effect.gen(function* () {
    const space = yield* spaceOf(spaceId)
    if (enabled && space.archivedAt !== null) return yield* new WikiSpaceArchived()
    yield* ensureRow(space, by)
    const rows = yield* query(
      `UPDATE wiki_public_sites SET enabled = $2, updated_by = $3, updated_at = now(),
         enabled_at = CASE WHEN $2 AND NOT enabled THEN now() WHEN $2 THEN enabled_at ELSE NULL END
       WHERE space_id = $1 RETURNING *`,
      [spaceId, enabled, by]
    )
    yield* query("UPDATE wiki_spaces SET is_public = $2 WHERE id = $1", [spaceId, enabled])
    return siteViewOf(space, rows[0])
  })

const By = { by: Schema.String }

export const PublicSite = Actor<{}>()({
  kind: "wikiPublicSite",
  state: Schema.Struct({}),
  initial: () => ({}),
  messages: {
    configure: {
      payload: Schema.Struct({ ...By, patch: PublicSitePatch }),
      success: PublicSiteView,
      error: Schema.Union([WikiSpaceNotFound, PublicWikiNoFreeSlug, PublicWikiSlugTaken])
    },
    enable: {
      payload: Schema.Struct(By),
      success: PublicSiteView,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, PublicWikiNoFreeSlug])
    },
    disable: {
      payload: Schema.Struct(By),
      success: PublicSiteView,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, PublicWikiNoFreeSlug])
    },
    share: {
      payload: Schema.Struct({ ...By, pageId: Schema.String, includeSubpages: Schema.Boolean }),
      success: PublicShare,
      error: Schema.Union([WikiSpaceNotFound, WikiPageNotInSpace, WikiPageArchived])
    },
    unshare: { payload: Schema.Struct({ ...By, pageId: Schema.String }), success: Schema.Void, error: PublicShareNotFound }
  },
  handlers: {
    configure: ({ by, patch }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const space = yield* spaceOf(ctx.address.id)
            yield* ensureRow(space, by)
            const fields = Object.keys(patch).filter((field) => Object.hasOwn(COLUMNS, field))
            const assignments = fields.map((field, i) => `${COLUMNS[field]} = $${i + 3}`)
            const rows = yield* query(
              `UPDATE wiki_public_sites SET ${[...assignments, "updated_by = $2", "updated_at = now()"].join(", ")}
            WHERE space_id = $1 RETURNING *`,
              [space.id, by, ...fields.map((field) => (patch as Row)[field])]
            ).pipe(Effect.catchTag("SqlError", slugClash))
            return siteViewOf(space, rows[0])
          })
        )
      ),
    // The space shows whether it is public: its actor rebuilds once this committed.
    enable: ({ by }, ctx) =>
      orDieSql(transaction(setEnabled(ctx.address.id, by, true))).pipe(Effect.tap(invalidateSpaces([ctx.address.id]))),
    disable: ({ by }, ctx) =>
      orDieSql(transaction(setEnabled(ctx.address.id, by, false))).pipe(Effect.tap(invalidateSpaces([ctx.address.id]))),
    share: ({ by, pageId, includeSubpages }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const space = yield* spaceOf(ctx.address.id)
            const pages = yield* query<{ archived_at: string | null }>(
              "SELECT archived_at FROM wiki_pages WHERE id = $1 AND space_id = $2",
              [pageId, space.id]
            )
            if (pages[0] === undefined) return yield* new WikiPageNotInSpace()
            if (pages[0].archived_at !== null) return yield* new WikiPageArchived()
            const rows = yield* query(
              `INSERT INTO wiki_public_shares (page_id, space_id, workspace_id, include_subpages, shared_by)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (page_id) DO UPDATE SET include_subpages = $4
           RETURNING *`,
              [pageId, space.id, space.workspaceId, includeSubpages, by]
            )
            yield* query("UPDATE wiki_pages SET is_published = true WHERE id = $1", [pageId])
            return toShare(rows[0]!)
          })
        )
      ),
    unshare: ({ pageId }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const rows = yield* query("DELETE FROM wiki_public_shares WHERE page_id = $1 AND space_id = $2 RETURNING page_id", [
              pageId,
              ctx.address.id
            ])
            if (rows.length === 0) return yield* new PublicShareNotFound()
            yield* query("UPDATE wiki_pages SET is_published = false WHERE id = $1", [pageId])
          })
        )
      )
  }
})

const findShares = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({
    page_id: Schema.String,
    include_subpages: Schema.Boolean,
    shared_by: Schema.String,
    shared_at: Schema.String,
    title: Schema.String,
    slug: Schema.String
  }),
  execute: (spaceId) => [
    `SELECT sh.page_id, sh.include_subpages, sh.shared_by, sh.shared_at, p.title, p.slug FROM wiki_public_shares sh JOIN wiki_pages p ON p.id = sh.page_id
      WHERE sh.space_id = $1 ORDER BY sh.shared_at DESC, sh.page_id`,
    [spaceId]
  ]
})

/** The pages of the space shared publicly one by one, last shared first, with their titles and slugs. */
export const sharesOf = (spaceId: string) =>
  Effect.map(findShares(spaceId), (rows) =>
    rows.map((row) => ({ share: toShare(row), page: { id: row.page_id, slug: row.slug, title: row.title } }))
  )
