/**
 * What the public (no credentials) may read of a wiki, and how public URLs
 * map to it.
 *
 * A page is public when nothing hides it — it and its ancestors are not
 * archived and not restricted to "view" — and something exposes it: its
 * space is published as a public wiki, or it (or an ancestor shared with its
 * subpages) is shared publicly. The space must not be archived and the
 * workspace must allow public wikis (Wiki Settings). Anything else answers
 * 404, exactly like something that does not exist.
 *
 * Public URL paths: `/{siteSlug}` (a public wiki's home), `/{siteSlug}/{pageSlug}`,
 * and the canonical long form `/{workspaceId}/{spaceKey}[/{pageSlug}]`.
 */
import { Effect, Schema } from "effect"
import { usersByIds } from "../identity/IdentityQueries.ts"
import { LiveDocuments } from "../LiveDocuments.ts"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type PublicSiteView, siteViewOf } from "./PublicSite.ts"
import { pagesOfSpace, SPACE_COLUMNS, toSpace } from "./WikiQueries.ts"
import type { PageRow, SpaceRow } from "./WikiRecords.ts"
import { brandingOf } from "./WikiSettings.ts"

const NullableString = Schema.NullOr(Schema.String)

export const PublicPageLink = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: NullableString
}).annotate({ identifier: "PublicWikiPageLink" })
export type PublicPageLink = typeof PublicPageLink.Type

export interface PublicTreeNode extends PublicPageLink {
  readonly children: ReadonlyArray<PublicTreeNode>
}
export const PublicTreeNode: Schema.Codec<PublicTreeNode> = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: NullableString,
  children: Schema.Array(Schema.suspend((): Schema.Codec<PublicTreeNode> => PublicTreeNode))
}).annotate({ identifier: "PublicWikiTreeNode" })

export const PublicPage = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: NullableString,
  coverImage: NullableString,
  spaceKey: Schema.String,
  path: Schema.String.annotate({ description: "Public URL path of the page" }),
  html: Schema.String.annotate({ description: "The page content as sanitized HTML" }),
  author: NullableString.annotate({ description: "Author's name, when the public wiki shows authors" }),
  updatedAt: NullableString.annotate({ description: "Last update, when the public wiki shows it" }),
  breadcrumbs: Schema.Array(PublicPageLink).annotate({ description: "Public ancestors, outermost first" }),
  children: Schema.Array(PublicPageLink)
}).annotate({ identifier: "PublicWikiPage" })
export type PublicPage = typeof PublicPage.Type

export const PublicSiteInfo = Schema.Struct({
  title: Schema.String,
  description: NullableString,
  logoUrl: NullableString,
  accentColor: NullableString,
  footerText: NullableString,
  allowSearch: Schema.Boolean,
  path: Schema.String
}).annotate({ identifier: "PublicWikiSite" })

type Row = Record<string, any>

/** Whether the workspace allows public wikis (Wiki Settings; allowed unless turned off). */
export const publicAllowed = (workspaceId: string) =>
  Effect.map(
    query<{ allow_public_wikis: boolean }>("SELECT allow_public_wikis FROM wiki_settings WHERE workspace_id = $1", [workspaceId]),
    (rows) => rows[0]?.allow_public_wikis ?? true
  )

export interface PublicSpace {
  readonly space: SpaceRow
  readonly site: PublicSiteView
  /** The workspace's wiki settings row (undefined: all defaults). */
  readonly settings: Row | undefined
}

const noSuchWiki = reject("not_found", "No such public wiki")

/** A published public wiki by its space's id (404 unless published, active and allowed). */
export const publishedSpace = (space: SpaceRow | undefined) =>
  Effect.gen(function* () {
    if (space === undefined || space.archivedAt !== null || !space.isPublic) return yield* noSuchWiki
    const settings = (yield* query<Row>("SELECT * FROM wiki_settings WHERE workspace_id = $1", [space.workspaceId]))[0]
    if (settings?.allow_public_wikis === false) return yield* noSuchWiki
    const row = (yield* query("SELECT * FROM wiki_public_sites WHERE space_id = $1", [space.id]))[0]
    if (row === undefined || !row.enabled) return yield* noSuchWiki
    return { space, site: siteViewOf(space, row), settings } satisfies PublicSpace
  })

export const publicSpaceByKey = (workspaceId: string, spaceKey: string) =>
  Effect.flatMap(
    query(`SELECT ${SPACE_COLUMNS} FROM wiki_spaces WHERE workspace_id = $1 AND lower(key) = lower($2)`, [workspaceId, spaceKey]),
    (rows) => publishedSpace(rows[0] ? toSpace(rows[0]) : undefined)
  )

export const publicSpaceBySlug = (slug: string) =>
  Effect.flatMap(
    query(
      `SELECT ${SPACE_COLUMNS.split(", ")
        .map((c) => `s.${c}`)
        .join(", ")} FROM wiki_spaces s
         JOIN wiki_public_sites ps ON ps.space_id = s.id WHERE lower(ps.slug) = lower($1)`,
      [slug]
    ),
    (rows) => publishedSpace(rows[0] ? toSpace(rows[0]) : undefined)
  )

/** The site as visitors see it: its own settings, falling back to the workspace branding and the space. */
export const siteInfo = (pub: PublicSpace) => {
  const branding = brandingOf(pub.settings)
  return {
    title: pub.site.title ?? pub.space.name,
    description: pub.site.description ?? (pub.space.description === "" ? null : pub.space.description),
    logoUrl: pub.site.logoUrl ?? branding.logoUrl,
    accentColor: pub.site.accentColor ?? branding.accentColor,
    footerText: pub.site.footerText,
    allowSearch: pub.site.allowSearch,
    path: pub.site.path
  }
}

/** The pages of a space the public may read, in tree order, with each one's nearest public parent. */
export interface PublicPages {
  readonly pages: ReadonlyArray<PageRow>
  readonly byId: ReadonlyMap<string, PageRow>
  /** The nearest public ancestor (null at the top of what is public). */
  readonly parentOf: (page: PageRow) => PageRow | null
  readonly childrenOf: (pageId: string | null) => ReadonlyArray<PageRow>
}

/**
 * Every page of `space` the public may read. `wholeSpace`: the space is a
 * published public wiki (otherwise only shared pages and shared subtrees count).
 */
export const publicPagesOf = (space: SpaceRow, wholeSpace: boolean) =>
  Effect.gen(function* () {
    const all = yield* pagesOfSpace(space.id)
    const shares = new Map(
      (yield* query<{ page_id: string; include_subpages: boolean }>(
        "SELECT page_id, include_subpages FROM wiki_public_shares WHERE space_id = $1",
        [space.id]
      )).map((row) => [row.page_id, row.include_subpages] as const)
    )
    const byId = new Map(all.map((page) => [page.id, page] as const))
    const memo = new Map<string, { hidden: boolean; deepShared: boolean; exposed: boolean }>()
    const stateOf = (page: PageRow, depth = 0): { hidden: boolean; deepShared: boolean; exposed: boolean } => {
      const known = memo.get(page.id)
      if (known !== undefined) return known
      const parent = page.parentId === null || depth > 1000 ? undefined : byId.get(page.parentId)
      const above = parent === undefined ? { hidden: false, deepShared: false, exposed: false } : stateOf(parent, depth + 1)
      const share = shares.get(page.id)
      const state = {
        hidden: above.hidden || page.archivedAt !== null || page.restriction === "view",
        deepShared: above.deepShared || share === true,
        exposed: wholeSpace || share !== undefined || above.deepShared
      }
      memo.set(page.id, state)
      return state
    }
    const pages = all.filter((page) => {
      const state = stateOf(page)
      return !state.hidden && state.exposed
    })
    const visible = new Map(pages.map((page) => [page.id, page] as const))
    const parentOf = (page: PageRow): PageRow | null => (page.parentId === null ? null : (visible.get(page.parentId) ?? null))
    const children = new Map<string | null, Array<PageRow>>()
    for (const page of pages) {
      const parentId = parentOf(page)?.id ?? null
      children.set(parentId, [...(children.get(parentId) ?? []), page])
    }
    return { pages, byId: visible, parentOf, childrenOf: (pageId: string | null) => children.get(pageId) ?? [] } satisfies PublicPages
  })

export const linkOf = (page: PageRow): PublicPageLink => ({ id: page.id, title: page.title, slug: page.slug, icon: page.icon })

export const treeOf = (pub: PublicPages, rootId: string | null): ReadonlyArray<PublicTreeNode> =>
  pub.childrenOf(rootId).map((page) => ({ ...linkOf(page), children: treeOf(pub, page.id) }))

/** The public path of a page: under its site when the space is a public wiki, else the canonical long form. */
export const publicPathOf = (space: SpaceRow, site: PublicSiteView | undefined, page: PageRow | null) => {
  const base = site?.enabled ? site.path : `/${space.workspaceId}/${space.key}`
  return page === null ? base : `${base}/${page.slug}`
}

/** A public page with its content (from the live document), breadcrumbs and children. */
export const publicPageView = (space: SpaceRow, site: PublicSiteView | undefined, pub: PublicPages, page: PageRow) =>
  Effect.gen(function* () {
    const snapshot = yield* (yield* LiveDocuments).snapshot(page.id)
    const breadcrumbs: Array<PublicPageLink> = []
    for (let parent = pub.parentOf(page); parent !== null && breadcrumbs.length < 1000; parent = pub.parentOf(parent)) {
      breadcrumbs.unshift(linkOf(parent))
    }
    const showAuthors = site?.showAuthors ?? false
    const author = showAuthors ? ((yield* usersByIds([page.createdBy])).get(page.createdBy)?.name ?? null) : null
    return {
      id: page.id,
      title: page.title,
      slug: page.slug,
      icon: page.icon,
      coverImage: page.coverImage,
      spaceKey: space.key,
      path: publicPathOf(space, site, page),
      html: snapshot.html,
      author,
      updatedAt: site === undefined || site.showLastUpdated ? page.updatedAt : null,
      breadcrumbs,
      children: pub.childrenOf(page.id).map(linkOf)
    } satisfies PublicPage
  })

/**
 * A page the public may read by id, wherever it is exposed (a published
 * public wiki, or shared): its space, that space's site (when published) and its public pages.
 */
export const publicPageById = (pageId: string) =>
  Effect.gen(function* () {
    const rows = yield* query<Row>(
      `SELECT ${SPACE_COLUMNS.split(", ")
        .map((c) => `s.${c}`)
        .join(", ")} FROM wiki_spaces s JOIN wiki_pages p ON p.space_id = s.id WHERE p.id = $1`,
      [pageId]
    )
    if (rows[0] === undefined) return yield* reject("not_found", "No such public page")
    const space = toSpace(rows[0])
    if (space.archivedAt !== null || !(yield* publicAllowed(space.workspaceId))) return yield* reject("not_found", "No such public page")
    const published = yield* publishedSpace(space).pipe(Effect.option)
    const site = published._tag === "Some" ? published.value.site : undefined
    const pub = yield* publicPagesOf(space, site !== undefined)
    const page = pub.byId.get(pageId)
    if (page === undefined) return yield* reject("not_found", "No such public page")
    return { space, site, pub, page }
  })

/** The published public wikis (sites enabled, spaces public and not archived) of a workspace, by slug. */
export const publishedSpacesOf = (workspaceId: string) =>
  Effect.map(
    query(
      `SELECT ${SPACE_COLUMNS.split(", ")
        .map((c) => `s.${c}`)
        .join(", ")} FROM wiki_spaces s
         JOIN wiki_public_sites ps ON ps.space_id = s.id
        WHERE s.workspace_id = $1 AND ps.enabled AND s.is_public AND s.archived_at IS NULL
        ORDER BY lower(ps.slug)`,
      [workspaceId]
    ),
    (rows) => rows.map(toSpace)
  )
