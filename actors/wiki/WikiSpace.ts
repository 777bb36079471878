/**
 * A wiki space: its settings, its permission entries and the shape of its
 * page tree (which page hangs where, in which order, archived or not). Every
 * change to those goes through this actor, so tree changes of one space
 * never interleave (no cycles from two concurrent moves, no lost positions).
 *
 * The rows (`wiki_spaces`, `wiki_space_permissions`, the tree columns of
 * `wiki_pages`) stay the truth, shared with the wiki's readers (search,
 * public wiki, dashboards); the actor writes them in one transaction before
 * it replies. In memory it keeps the space and its entries (`SpaceModel`,
 * rebuilt from the rows after each of its writes), which the access checks
 * read; tree changes invalidate the page actors whose row or ancestors they
 * changed (`WikiStaleness`) before the reply.
 * Who may ask is checked by the caller (WikiAccess); the actor keeps the
 * space's own rules (unique keys, no edits while archived, a tree stays a tree).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { orDieSql, Sql, type SqlError, query } from "../../persistence/Sql.ts"
import { Actor } from "../../runtime/Actor.ts"
import {
  PAGE_COLUMNS,
  pageById,
  pagesOfSpace,
  SPACE_COLUMNS,
  spaceById,
  spaceByKey,
  spacePermissions,
  subtreeIds,
  toPage,
  toSpace
} from "./WikiQueries.ts"
import { PageRecord, type PageRow, Removed, SpacePermissionRecord, SpaceRecord, type SpaceRow, Subject } from "./WikiRecords.ts"
import { SpaceRole, SpaceVisibility } from "./WikiRoles.ts"
import { rebuildSpace, SpaceModel } from "./SpaceModel.ts"
import { invalidatingAfter, type Touched } from "./WikiStaleness.ts"
import { workspaceRoleOf } from "./WorkspaceRole.ts"
import { placeAt } from "./SiblingPosition.ts"
import { retryOnSlugClash, uniqueSlug } from "./Slug.ts"
import { withWikiEvents } from "./WikiEvents.ts"
import {
  WikiArchivedHomePage,
  WikiMoveIntoSubtree,
  WikiPageAlreadyArchived,
  WikiPageArchived,
  WikiPageExists,
  WikiPageNotArchived,
  WikiPageNotInSpace,
  WikiParentPageArchived,
  WikiParentPageNotFound,
  WikiPermissionEntryNotFound,
  WikiSlugClash,
  WikiSpaceAlreadyArchived,
  WikiSpaceArchived,
  WikiSpaceExists,
  WikiSpaceKeyTaken,
  WikiSpaceNotArchived,
  WikiSpaceNotFound,
  WikiSubjectNotMember,
  WikiTargetSpaceArchived,
  WikiTargetSpaceNotFound
} from "./WikiErrors.ts"

const By = { by: Schema.String }
const NullableString = Schema.NullOr(Schema.String)

const transaction = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R | Sql> =>
  Sql.use((sql) => sql.transaction(body))

const existingSpace = (spaceId: string) =>
  Effect.flatMap(spaceById(spaceId), (space) => (space === undefined ? Effect.fail(new WikiSpaceNotFound()) : Effect.succeed(space)))

const activeSpace = (spaceId: string) =>
  Effect.flatMap(existingSpace(spaceId), (space) =>
    space.archivedAt !== null ? Effect.fail(new WikiSpaceArchived()) : Effect.succeed(space)
  )

const pageInSpace = (spaceId: string, pageId: string) =>
  Effect.flatMap(pageById(pageId), (page) =>
    page === undefined || page.spaceId !== spaceId ? Effect.fail(new WikiPageNotInSpace()) : Effect.succeed(page)
  )

/** The parent a page is put under, in the space it goes to (`target`: another than the page's own). */
const parentInSpace = (spaceId: string, parentId: string, target: boolean) =>
  Effect.gen(function* () {
    const parent = yield* pageById(parentId)
    if (parent === undefined || parent.spaceId !== spaceId) return yield* new WikiParentPageNotFound({ target })
    if (parent.archivedAt !== null) return yield* new WikiParentPageArchived()
    return parent
  })

/** The space a page moves or is copied to. */
const targetSpace = (spaceId: string) =>
  Effect.gen(function* () {
    const space = yield* spaceById(spaceId)
    if (space === undefined) return yield* new WikiTargetSpaceNotFound({ named: true })
    if (space.archivedAt !== null) return yield* new WikiTargetSpaceArchived()
    return space
  })

const keyClash = (error: SqlError): Effect.Effect<never, WikiSpaceKeyTaken | SqlError> =>
  error.code === "23505" ? Effect.fail(new WikiSpaceKeyTaken()) : Effect.fail(error)

const checkKeyFree = (workspaceId: string, key: string, exceptSpaceId: string) =>
  Effect.flatMap(spaceByKey(workspaceId, key), (other) =>
    other !== undefined && other.id !== exceptSpaceId ? Effect.fail(new WikiSpaceKeyTaken()) : Effect.void
  )

/** Pages under `parentId` (null: top level) of the space that are not archived, in order. */
const siblingsOf = (spaceId: string, parentId: string | null, exceptPageId: string) =>
  query<{ id: string; position: number }>(
    `SELECT id, position FROM wiki_pages
      WHERE space_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND archived_at IS NULL AND id <> $3
      ORDER BY position, created_at, id`,
    [spaceId, parentId, exceptPageId]
  ).pipe(Effect.map((rows) => rows.map((row) => ({ id: row.id, position: Number(row.position) }))))

/** A position for a page under `parentId` at `index`, renumbering the siblings if needed (they are touched). */
const place = (touched: Touched, spaceId: string, parentId: string | null, pageId: string, index: number | null) =>
  Effect.gen(function* () {
    const placement = placeAt(yield* siblingsOf(spaceId, parentId, pageId), index)
    for (const [id, position] of placement.renumber) {
      yield* query("UPDATE wiki_pages SET position = $2 WHERE id = $1", [id, position])
      touched.pages.add(id)
    }
    return placement.position
  })

/** The rows that go when pages are deleted for good: their attachments' blobs are returned for deletion afterwards. */
const deletePages = (touched: Touched, pageIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (pageIds.length === 0) return { pageIds: [], blobKeys: [] } satisfies Removed
    for (const id of pageIds) touched.pages.add(id)
    const blobs = yield* query<{ id: string; blob_key: string }>(
      "SELECT id, blob_key FROM wiki_attachments WHERE page_id = ANY($1::text[])",
      [pageIds]
    )
    if (blobs.length > 0) {
      const uncovered = yield* query<{ id: string }>(
        "UPDATE wiki_pages SET cover_image = NULL WHERE cover_image = ANY($1::text[]) RETURNING id",
        [blobs.map((row) => `attachment:${row.id}`)]
      )
      for (const row of uncovered) touched.pages.add(row.id)
    }
    yield* query("DELETE FROM wiki_page_links WHERE target_page_id = ANY($1::text[])", [pageIds])
    const homeless = yield* query<{ id: string }>(
      "UPDATE wiki_spaces SET home_page_id = NULL WHERE home_page_id = ANY($1::text[]) RETURNING id",
      [pageIds]
    )
    for (const row of homeless) touched.spaces.add(row.id)
    // One statement: parent links inside the deleted set are checked at its end. Permissions, versions,
    // comments, attachments and outgoing links go with their page (ON DELETE CASCADE).
    yield* query("DELETE FROM wiki_pages WHERE id = ANY($1::text[])", [pageIds])
    return { pageIds: [...pageIds], blobKeys: blobs.map((row) => row.blob_key) } satisfies Removed
  })

const insertPage = (page: {
  id: string
  space: SpaceRow
  parentId: string | null
  title: string
  icon: string | null
  coverImage: string | null
  position: number
  restriction: string
  by: string
}) =>
  Effect.gen(function* () {
    const slug = yield* uniqueSlug(page.space.id, page.title, page.id)
    const rows = yield* query(
      `INSERT INTO wiki_pages (id, space_id, workspace_id, parent_id, title, slug, icon, cover_image, position, restriction, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
       RETURNING ${PAGE_COLUMNS}`,
      [
        page.id,
        page.space.id,
        page.space.workspaceId,
        page.parentId,
        page.title,
        slug,
        page.icon,
        page.coverImage,
        page.position,
        page.restriction,
        page.by
      ]
    )
    return toPage(rows[0]!)
  })

const memberCheck = (workspaceId: string, userId: string) =>
  Effect.flatMap(workspaceRoleOf(workspaceId, userId), (role) =>
    role !== undefined ? Effect.void : Effect.fail(new WikiSubjectNotMember({ field: "body.userId" }))
  )

/** The space's rows changed: rebuild the model before the next message. */
const reloading = <A, E, R>(ctx: { readonly reload: () => void }, write: Effect.Effect<A, E, R>) =>
  Effect.tap(write, () => Effect.sync(ctx.reload))

const MoveErrors = Schema.Union([
  WikiSpaceNotFound,
  WikiSpaceArchived,
  WikiPageNotInSpace,
  WikiPageArchived,
  WikiTargetSpaceNotFound,
  WikiTargetSpaceArchived,
  WikiParentPageNotFound,
  WikiParentPageArchived,
  WikiMoveIntoSubtree,
  WikiSlugClash
])

export const WikiSpace = Actor<SpaceModel | null>()({
  kind: "wikiSpace",
  state: Schema.NullOr(SpaceModel),
  initial: () => null,
  rebuild: rebuildSpace,
  messages: {
    /** The space and its permission entries, from memory. */
    view: { payload: Schema.Struct({}), success: SpaceModel, error: WikiSpaceNotFound },
    create: {
      payload: Schema.Struct({
        ...By,
        workspaceId: Schema.String,
        key: Schema.String,
        name: Schema.String,
        description: Schema.String,
        icon: NullableString,
        visibility: SpaceVisibility
      }),
      success: SpaceRecord,
      error: Schema.Union([WikiSpaceExists, WikiSpaceKeyTaken])
    },
    update: {
      payload: Schema.Struct({
        ...By,
        key: Schema.optionalKey(Schema.String),
        name: Schema.optionalKey(Schema.String),
        description: Schema.optionalKey(Schema.String),
        icon: Schema.optionalKey(NullableString),
        visibility: Schema.optionalKey(SpaceVisibility)
      }),
      success: SpaceRecord,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiSpaceKeyTaken])
    },
    archive: {
      payload: Schema.Struct({ ...By }),
      success: SpaceRecord,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceAlreadyArchived])
    },
    restore: { payload: Schema.Struct({ ...By }), success: SpaceRecord, error: Schema.Union([WikiSpaceNotFound, WikiSpaceNotArchived]) },
    /** Deletes the space and every page in it for good. */
    remove: { payload: Schema.Struct({ ...By }), success: Removed, error: WikiSpaceNotFound },
    setHomePage: {
      payload: Schema.Struct({ ...By, pageId: NullableString }),
      success: SpaceRecord,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiPageNotInSpace, WikiArchivedHomePage])
    },
    grant: {
      payload: Schema.Struct({ ...By, subject: Subject, role: SpaceRole }),
      success: SpacePermissionRecord,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiSubjectNotMember])
    },
    revoke: {
      payload: Schema.Struct({ ...By, permissionId: Schema.String }),
      success: Schema.Void,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiPermissionEntryNotFound])
    },
    createPage: {
      payload: Schema.Struct({
        ...By,
        pageId: Schema.String,
        parentId: NullableString,
        title: Schema.String,
        icon: NullableString,
        coverImage: NullableString,
        index: Schema.NullOr(Schema.Number)
      }),
      success: PageRecord,
      error: Schema.Union([
        WikiSpaceNotFound,
        WikiSpaceArchived,
        WikiPageExists,
        WikiParentPageNotFound,
        WikiParentPageArchived,
        WikiSlugClash
      ])
    },
    movePage: {
      payload: Schema.Struct({
        ...By,
        pageId: Schema.String,
        parentId: NullableString,
        index: Schema.NullOr(Schema.Number),
        targetSpaceId: NullableString
      }),
      success: PageRecord,
      error: MoveErrors
    },
    duplicatePage: {
      payload: Schema.Struct({
        ...By,
        pageId: Schema.String,
        title: NullableString,
        /** Absent: beside the original. */
        parentId: Schema.optionalKey(NullableString),
        targetSpaceId: NullableString,
        includeChildren: Schema.Boolean,
        /** Descendants not to copy (with what hangs below them): those the caller may not see. */
        exclude: Schema.Array(Schema.String)
      }),
      success: Schema.Struct({ copies: Schema.Array(Schema.Struct({ sourceId: Schema.String, page: PageRecord })) }),
      error: Schema.Union([
        WikiSpaceNotFound,
        WikiSpaceArchived,
        WikiPageNotInSpace,
        WikiPageArchived,
        WikiTargetSpaceNotFound,
        WikiTargetSpaceArchived,
        WikiParentPageNotFound,
        WikiParentPageArchived,
        WikiSlugClash
      ])
    },
    /** Archives the page and its whole subtree; returns the archived page ids. */
    archivePage: {
      payload: Schema.Struct({ ...By, pageId: Schema.String }),
      success: Schema.Array(Schema.String),
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiPageNotInSpace, WikiPageAlreadyArchived])
    },
    /** Restores what was archived with the page; under the space's top level when its parent is gone or archived. */
    restorePage: {
      payload: Schema.Struct({ ...By, pageId: Schema.String }),
      success: PageRecord,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiPageNotInSpace, WikiPageNotArchived])
    },
    /** Deletes the page and its whole subtree for good. */
    deletePage: {
      payload: Schema.Struct({ ...By, pageId: Schema.String }),
      success: Removed,
      error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived, WikiPageNotInSpace])
    },
    /** Deletes every archived page of the space for good. */
    emptyTrash: { payload: Schema.Struct({ ...By }), success: Removed, error: Schema.Union([WikiSpaceNotFound, WikiSpaceArchived]) }
  },
  handlers: {
    view: (_payload, ctx) => (ctx.state === null ? Effect.fail(new WikiSpaceNotFound()) : Effect.succeed(ctx.state)),

    create: (payload, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const id = ctx.address.id
            if ((yield* spaceById(id)) !== undefined) return yield* new WikiSpaceExists()
            const key = payload.key.toUpperCase()
            yield* checkKeyFree(payload.workspaceId, key, id)
            return yield* transaction(
              Effect.gen(function* () {
                const rows = yield* query(
                  `INSERT INTO wiki_spaces (id, workspace_id, key, name, description, icon, visibility, created_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${SPACE_COLUMNS}`,
                  [id, payload.workspaceId, key, payload.name.trim(), payload.description, payload.icon, payload.visibility, payload.by]
                )
                // The creator administers the space (even a restricted one they could not otherwise enter).
                yield* query(
                  `INSERT INTO wiki_space_permissions (id, space_id, workspace_id, user_id, role, created_by) VALUES ($1, $2, $3, $4, 'admin', $4)`,
                  [randomUUID(), id, payload.workspaceId, payload.by]
                )
                return toSpace(rows[0]!)
              })
            ).pipe(Effect.catchTag("SqlError", keyClash))
          })
        )
      ),

    update: ({ by: _by, ...patch }, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const key = patch.key?.toUpperCase()
            if (key !== undefined) yield* checkKeyFree(space.workspaceId, key, space.id)
            const columns: Array<[string, unknown]> = []
            if (key !== undefined) columns.push(["key", key])
            if (patch.name !== undefined) columns.push(["name", patch.name.trim()])
            if (patch.description !== undefined) columns.push(["description", patch.description])
            if (patch.icon !== undefined) columns.push(["icon", patch.icon])
            if (patch.visibility !== undefined) columns.push(["visibility", patch.visibility])
            if (columns.length === 0) return space
            const sets = columns.map(([column], i) => `${column} = $${i + 2}`).join(", ")
            const rows = yield* query(`UPDATE wiki_spaces SET ${sets}, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`, [
              space.id,
              ...columns.map(([, value]) => value)
            ]).pipe(Effect.catchTag("SqlError", keyClash))
            return toSpace(rows[0]!)
          })
        )
      ),

    archive: (_payload, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* existingSpace(ctx.address.id)
            if (space.archivedAt !== null) return yield* new WikiSpaceAlreadyArchived()
            const rows = yield* query(
              `UPDATE wiki_spaces SET archived_at = now(), updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`,
              [space.id]
            )
            return toSpace(rows[0]!)
          })
        )
      ),

    restore: (_payload, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* existingSpace(ctx.address.id)
            if (space.archivedAt === null) return yield* new WikiSpaceNotArchived()
            const rows = yield* query(
              `UPDATE wiki_spaces SET archived_at = NULL, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`,
              [space.id]
            )
            return toSpace(rows[0]!)
          })
        )
      ),

    remove: (_payload, ctx) =>
      reloading(
        ctx,
        invalidatingAfter((touched) =>
          orDieSql(
            Effect.gen(function* () {
              const space = yield* existingSpace(ctx.address.id)
              return yield* transaction(
                Effect.gen(function* () {
                  const pages = yield* pagesOfSpace(space.id)
                  const removed = yield* deletePages(
                    touched,
                    pages.map((page) => page.id)
                  )
                  yield* query("DELETE FROM wiki_spaces WHERE id = $1", [space.id])
                  return removed
                })
              )
            })
          )
        )
      ),

    setHomePage: ({ pageId }, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            if (pageId !== null) {
              const page = yield* pageInSpace(space.id, pageId)
              if (page.archivedAt !== null) return yield* new WikiArchivedHomePage()
            }
            const rows = yield* query(
              `UPDATE wiki_spaces SET home_page_id = $2, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`,
              [space.id, pageId]
            )
            return toSpace(rows[0]!)
          })
        )
      ),

    grant: ({ by, subject, role }, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const userId = "userId" in subject ? subject.userId : null
            const workspaceRole = "workspaceRole" in subject ? subject.workspaceRole : null
            if (userId !== null) yield* memberCheck(space.workspaceId, userId)
            const existing = (yield* spacePermissions(space.id)).find((entry) =>
              userId !== null ? entry.userId === userId : entry.workspaceRole === workspaceRole
            )
            if (existing !== undefined) {
              yield* query("UPDATE wiki_space_permissions SET role = $2, updated_at = now() WHERE id = $1", [existing.id, role])
            } else {
              yield* query(
                `INSERT INTO wiki_space_permissions (id, space_id, workspace_id, user_id, workspace_role, role, created_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                [randomUUID(), space.id, space.workspaceId, userId, workspaceRole, role, by]
              )
            }
            const entries = yield* spacePermissions(space.id)
            return entries.find((entry) => (userId !== null ? entry.userId === userId : entry.workspaceRole === workspaceRole))!
          })
        )
      ),

    revoke: ({ permissionId }, ctx) =>
      reloading(
        ctx,
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const deleted = yield* query("DELETE FROM wiki_space_permissions WHERE id = $1 AND space_id = $2 RETURNING id", [
              permissionId,
              space.id
            ])
            if (deleted.length === 0) return yield* new WikiPermissionEntryNotFound({ on: "space" })
          })
        )
      ),

    createPage: (payload, ctx) =>
      invalidatingAfter((touched) =>
        retryOnSlugClash(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            if ((yield* pageById(payload.pageId)) !== undefined) return yield* new WikiPageExists()
            if (payload.parentId !== null) yield* parentInSpace(space.id, payload.parentId, false)
            return yield* withWikiEvents(
              Effect.gen(function* () {
                const position = yield* place(touched, space.id, payload.parentId, payload.pageId, payload.index)
                // An actor asked for this id before it existed is live with "no such page".
                touched.pages.add(payload.pageId)
                return yield* insertPage({
                  id: payload.pageId,
                  space,
                  parentId: payload.parentId,
                  title: payload.title.trim(),
                  icon: payload.icon,
                  coverImage: payload.coverImage,
                  position,
                  restriction: "open",
                  by: payload.by
                })
              }),
              (page) => [
                {
                  workspaceId: space.workspaceId,
                  spaceId: space.id,
                  type: "page.created",
                  by: payload.by,
                  pageId: page.id,
                  data: { parentPageId: page.parentId }
                }
              ]
            )
          })
        )
      ),

    movePage: ({ by, pageId, parentId, index, targetSpaceId }, ctx) =>
      invalidatingAfter((touched) =>
        retryOnSlugClash(
          Effect.gen(function* () {
            const source = yield* activeSpace(ctx.address.id)
            const page = yield* pageInSpace(source.id, pageId)
            if (page.archivedAt !== null) return yield* new WikiPageArchived()
            const target = targetSpaceId === null || targetSpaceId === source.id ? source : yield* targetSpace(targetSpaceId)
            if (target.workspaceId !== source.workspaceId) return yield* new WikiTargetSpaceNotFound({ named: false })
            const subtree = yield* subtreeIds(page.id)
            if (parentId !== null) {
              const parent = yield* parentInSpace(target.id, parentId, true)
              if (subtree.includes(parent.id)) return yield* new WikiMoveIntoSubtree()
            }
            // Its place, its ancestors and (across spaces) its slugs change for the whole subtree.
            for (const id of subtree) touched.pages.add(id)
            return yield* withWikiEvents(
              Effect.gen(function* () {
                if (target.id !== source.id) {
                  touched.spaces.add(source.id)
                  yield* query("SELECT id FROM wiki_spaces WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [[source.id, target.id]])
                  // The subtree changes space: its slugs must be unique there, its dependants follow.
                  for (const id of subtree) {
                    const moved = (yield* pageById(id))!
                    const slug = yield* uniqueSlug(target.id, moved.title, id)
                    yield* query("UPDATE wiki_pages SET space_id = $2, slug = $3 WHERE id = $1", [id, target.id, slug])
                  }
                  for (const table of ["wiki_page_permissions", "wiki_comments", "wiki_attachments"]) {
                    yield* query(`UPDATE ${table} SET space_id = $2 WHERE page_id = ANY($1::text[])`, [subtree, target.id])
                  }
                  yield* query("UPDATE wiki_spaces SET home_page_id = NULL WHERE id = $1 AND home_page_id = ANY($2::text[])", [
                    source.id,
                    subtree
                  ])
                }
                const position = yield* place(touched, target.id, parentId, page.id, index)
                const rows = yield* query(
                  `UPDATE wiki_pages SET parent_id = $2, position = $3, updated_by = $4, updated_at = now() WHERE id = $1 RETURNING ${PAGE_COLUMNS}`,
                  [page.id, parentId, position, by]
                )
                return toPage(rows[0]!)
              }),
              (moved) =>
                // Across spaces, the page leaves one tree and joins another.
                [...new Set([source.id, target.id])].map((spaceId) => ({
                  workspaceId: source.workspaceId,
                  spaceId,
                  type: "page.moved",
                  by,
                  pageId: moved.id,
                  data: { parentPageId: moved.parentId, spaceId: moved.spaceId }
                }))
            )
          })
        )
      ),

    duplicatePage: ({ by, pageId, title, targetSpaceId, includeChildren, exclude, ...rest }, ctx) =>
      invalidatingAfter((touched) =>
        retryOnSlugClash(
          Effect.gen(function* () {
            const source = yield* existingSpace(ctx.address.id)
            const original = yield* pageInSpace(source.id, pageId)
            if (original.archivedAt !== null) return yield* new WikiPageArchived()
            const target = targetSpaceId === null || targetSpaceId === source.id ? source : yield* targetSpace(targetSpaceId)
            if (target.archivedAt !== null) return yield* new WikiSpaceArchived()
            if (target.workspaceId !== source.workspaceId) return yield* new WikiTargetSpaceNotFound({ named: false })
            const sameSpot = rest.parentId === undefined && target.id === source.id
            const parentId = rest.parentId === undefined ? (target.id === source.id ? original.parentId : null) : rest.parentId
            if (parentId !== null) yield* parentInSpace(target.id, parentId, true)
            const all = yield* pagesOfSpace(source.id)
            const skipped = new Set(exclude)
            const live = all.filter((page) => page.archivedAt === null && !skipped.has(page.id))
            // The pages to copy, parents before children.
            const toCopy: Array<PageRow> = [original]
            if (includeChildren) {
              for (let i = 0; i < toCopy.length; i++) toCopy.push(...live.filter((page) => page.parentId === toCopy[i]!.id))
            }
            const entries = yield* query<Record<string, any>>("SELECT * FROM wiki_page_permissions WHERE page_id = ANY($1::text[])", [
              toCopy.map((p) => p.id)
            ])
            return yield* withWikiEvents(
              Effect.gen(function* () {
                const newIds = new Map(toCopy.map((page) => [page.id, randomUUID()] as const))
                for (const id of newIds.values()) touched.pages.add(id)
                const copies: Array<{ sourceId: string; page: PageRow }> = []
                for (const page of toCopy) {
                  const isRoot = page.id === original.id
                  const newParent = isRoot ? parentId : newIds.get(page.parentId!)!
                  let position = page.position
                  if (isRoot) {
                    const siblings = yield* siblingsOf(target.id, newParent, "")
                    const at = sameSpot ? siblings.findIndex((sibling) => sibling.id === original.id) + 1 : null
                    position = yield* place(touched, target.id, newParent, "", at)
                  }
                  const copy = yield* insertPage({
                    id: newIds.get(page.id)!,
                    space: target,
                    parentId: newParent,
                    title: isRoot ? (title ?? `Copy of ${page.title}`).trim().slice(0, 255) : page.title,
                    icon: page.icon,
                    coverImage: page.coverImage,
                    position,
                    restriction: page.restriction,
                    by
                  })
                  // Restricted content stays restricted in the copy.
                  for (const entry of entries.filter((e) => e.page_id === page.id)) {
                    yield* query(
                      `INSERT INTO wiki_page_permissions (id, page_id, space_id, workspace_id, user_id, workspace_role, access, created_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                      [randomUUID(), copy.id, target.id, target.workspaceId, entry.user_id, entry.workspace_role, entry.access, by]
                    )
                  }
                  copies.push({ sourceId: page.id, page: copy })
                }
                return { copies }
              }),
              ({ copies }) =>
                copies.slice(0, 1).map(({ page }) => ({
                  workspaceId: target.workspaceId,
                  spaceId: target.id,
                  type: "page.created",
                  by,
                  pageId: page.id,
                  data: { parentPageId: page.parentId, copies: copies.length }
                }))
            )
          })
        )
      ),

    archivePage: ({ by, pageId }, ctx) =>
      invalidatingAfter((touched) =>
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const page = yield* pageInSpace(space.id, pageId)
            if (page.archivedAt !== null) return yield* new WikiPageAlreadyArchived()
            const subtree = yield* subtreeIds(page.id)
            return yield* withWikiEvents(
              Effect.gen(function* () {
                const rows = yield* query<{ id: string }>(
                  `UPDATE wiki_pages SET archived_at = now(), updated_by = $2, updated_at = now()
              WHERE id = ANY($1::text[]) AND archived_at IS NULL RETURNING id`,
                  [subtree, by]
                )
                const homeless = yield* query(
                  "UPDATE wiki_spaces SET home_page_id = NULL WHERE id = $1 AND home_page_id = ANY($2::text[]) RETURNING id",
                  [space.id, subtree]
                )
                for (const row of rows) touched.pages.add(row.id)
                if (homeless.length > 0) touched.spaces.add(space.id)
                return rows.map((row) => row.id)
              }),
              (archived) => [
                {
                  workspaceId: space.workspaceId,
                  spaceId: space.id,
                  type: "page.archived",
                  by,
                  pageId: page.id,
                  data: { pageIds: archived }
                }
              ]
            )
          })
        )
      ),

    restorePage: ({ by, pageId }, ctx) =>
      invalidatingAfter((touched) =>
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const page = yield* pageInSpace(space.id, pageId)
            if (page.archivedAt === null) return yield* new WikiPageNotArchived()
            const parent = page.parentId === null ? undefined : yield* pageById(page.parentId)
            const parentId = parent !== undefined && parent.archivedAt === null ? parent.id : null
            const subtree = yield* subtreeIds(page.id)
            return yield* withWikiEvents(
              Effect.gen(function* () {
                // What was archived together comes back together; pages archived on their own before stay in the trash.
                yield* query(
                  `UPDATE wiki_pages SET archived_at = NULL, updated_by = $3, updated_at = now()
              WHERE id = ANY($1::text[]) AND archived_at = (SELECT archived_at FROM wiki_pages WHERE id = $2)`,
                  [subtree, page.id, by]
                )
                // The page may come back elsewhere: its subtree's ancestors change with it.
                for (const id of subtree) touched.pages.add(id)
                const position = parentId === page.parentId ? page.position : yield* place(touched, space.id, parentId, page.id, null)
                const rows = yield* query(
                  `UPDATE wiki_pages SET archived_at = NULL, parent_id = $2, position = $3, updated_by = $4, updated_at = now() WHERE id = $1 RETURNING ${PAGE_COLUMNS}`,
                  [page.id, parentId, position, by]
                )
                return toPage(rows[0]!)
              }),
              (restored) => [
                {
                  workspaceId: space.workspaceId,
                  spaceId: space.id,
                  type: "page.restored",
                  by,
                  pageId: restored.id,
                  data: { parentPageId: restored.parentId }
                }
              ]
            )
          })
        )
      ),

    deletePage: ({ by, pageId }, ctx) =>
      invalidatingAfter((touched) =>
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const page = yield* pageInSpace(space.id, pageId)
            const subtree = yield* subtreeIds(page.id)
            return yield* withWikiEvents(deletePages(touched, subtree), (removed) => [
              {
                workspaceId: space.workspaceId,
                spaceId: space.id,
                type: "page.deleted",
                by,
                pageId: page.id,
                data: { pageIds: removed.pageIds }
              }
            ])
          })
        )
      ),

    emptyTrash: (_payload, ctx) =>
      invalidatingAfter((touched) =>
        orDieSql(
          Effect.gen(function* () {
            const space = yield* activeSpace(ctx.address.id)
            const pages = yield* pagesOfSpace(space.id)
            const archived = new Set(pages.filter((page) => page.archivedAt !== null).map((page) => page.id))
            // Whatever hangs below an archived page goes with it.
            let grew = true
            while (grew) {
              grew = false
              for (const page of pages) {
                if (!archived.has(page.id) && page.parentId !== null && archived.has(page.parentId)) {
                  archived.add(page.id)
                  grew = true
                }
              }
            }
            return yield* transaction(deletePages(touched, [...archived]))
          })
        )
      )
  }
})
