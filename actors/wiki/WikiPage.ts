/**
 * A wiki page: its metadata (title, slug, icon, cover), its restrictions,
 * its versions, comments and attachments, and the lifecycle of its live
 * document (content written through LiveDocuments so connected editors see
 * REST edits at once; the text projection `wiki_pages.content_text` and the
 * links table follow every change; removed for good when the page is).
 *
 * Like WikiSpace, its rows are the truth, shared with the wiki's readers; the
 * actor is their single writer and keeps the page as the API shows it in
 * memory (`PageModel`: metadata, entries, ancestors), rebuilt after each of
 * its writes; a change of its title, icon or restriction also invalidates
 * its descendants, which show and inherit them. Where the page hangs in the
 * tree belongs to its space (WikiSpace). Who may ask is checked by the
 * caller (WikiAccess).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../LiveDocuments.ts"
import { orDieSql, Sql, query } from "../../persistence/Sql.ts"
import { Actor } from "../../runtime/Actor.ts"
import { AttachmentRecord, attachmentById } from "./PageAttachments.ts"
import { enqueueNotifications } from "../notifications/Outbox.ts"
import { wikiCommentEntries, wikiShareEntry } from "../notifications/Sources.ts"
import { CommentRecord, commentById } from "./PageComments.ts"
import { recordLinks } from "./PageLinks.ts"
import { captureVersion, latestVersion, VersionRecord, versionContent } from "./PageVersions.ts"
import { retryOnSlugClash, uniqueSlug } from "./Slug.ts"
import { type WikiEvent, withWikiEvents } from "./WikiEvents.ts"
import { autosaveIntervalMillis } from "./VersionPolicy.ts"
import { PAGE_COLUMNS, pageById, pagePermissions, spaceById, subtreeIds, toPage } from "./WikiQueries.ts"
import { PagePermissionRecord, PageRecord, type PageRow, Subject } from "./WikiRecords.ts"
import { PageAccessLevel, PageRestriction } from "./WikiRoles.ts"
import { ProseMirrorNode } from "./WikiViews.ts"
import { PageModel, rebuildPage } from "./PageModel.ts"
import { invalidatePages } from "./WikiStaleness.ts"
import { workspaceRoleOf } from "./WorkspaceRole.ts"
import {
  WikiAttachmentNotFound,
  WikiCommentNotFound,
  WikiCommentNotYours,
  WikiPageArchived,
  WikiPageNotFound,
  WikiPageNotRestricted,
  WikiPermissionEntryNotFound,
  WikiReplyAnchored,
  WikiReplyToReply,
  WikiResolveReply,
  WikiSlugClash,
  WikiSpaceArchived,
  WikiSubjectNotMember,
  WikiThreadDeleted,
  WikiVersionNotFound
} from "./WikiErrors.ts"

const By = { by: Schema.String }
const NullableString = Schema.NullOr(Schema.String)

const transaction = <A, E, R>(body: Effect.Effect<A, E, R>) => Sql.use((sql) => sql.transaction(body))

/** An event of the page's space about this page (WikiEvents.ts). */
const pageEvent = (page: PageRow, by: string, type: string, data?: Record<string, unknown>): WikiEvent => ({
  workspaceId: page.workspaceId,
  spaceId: page.spaceId,
  type,
  by,
  pageId: page.id,
  ...(data !== undefined ? { data } : {})
})

const existingPage = (pageId: string) =>
  Effect.flatMap(pageById(pageId), (page) => (page === undefined ? Effect.fail(new WikiPageNotFound()) : Effect.succeed(page)))

/** The page, if neither it nor its space is archived. */
const activePage = (pageId: string) =>
  Effect.gen(function* () {
    const page = yield* existingPage(pageId)
    const space = yield* spaceById(page.spaceId)
    if (space === undefined) return yield* new WikiPageNotFound()
    if (space.archivedAt !== null) return yield* new WikiSpaceArchived()
    if (page.archivedAt !== null) return yield* new WikiPageArchived()
    return page
  })

const commentOfPage = (pageId: string, commentId: string) =>
  Effect.flatMap(commentById(commentId), (comment) =>
    comment === undefined || comment.pageId !== pageId ? Effect.fail(new WikiCommentNotFound()) : Effect.succeed(comment)
  )

/** What the page's notifications say of it. */
const pageNotice = (page: PageRow) => ({ pageId: page.id, spaceId: page.spaceId, workspaceId: page.workspaceId, pageTitle: page.title })

const setMentions = (commentId: string, workspaceId: string, userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    yield* query("DELETE FROM wiki_comment_mentions WHERE comment_id = $1", [commentId])
    for (const userId of new Set(userIds)) {
      yield* query("INSERT INTO wiki_comment_mentions (comment_id, user_id, workspace_id) VALUES ($1, $2, $3)", [
        commentId,
        userId,
        workspaceId
      ])
    }
  })

const memberCheck = (workspaceId: string, userId: string) =>
  Effect.flatMap(workspaceRoleOf(workspaceId, userId), (role) =>
    role !== undefined ? Effect.void : Effect.fail(new WikiSubjectNotMember({ field: "body.userId" }))
  )

/** After the live document changed through us: the text projection, the links and a version. */
const afterContentChange = (page: PageRow, by: string, reason: "created" | "edited" | "restored", restoredFrom: string | null) =>
  Effect.gen(function* () {
    const live = yield* LiveDocuments
    const snapshot = yield* live.snapshot(page.id)
    return yield* transaction(
      Effect.gen(function* () {
        const rows = yield* query(
          `UPDATE wiki_pages SET content_text = $2, updated_by = $3, updated_at = now() WHERE id = $1 RETURNING ${PAGE_COLUMNS}`,
          [page.id, snapshot.text, by]
        )
        yield* recordLinks(page.id, page.workspaceId, snapshot.content)
        const version = yield* captureVersion({
          pageId: page.id,
          workspaceId: page.workspaceId,
          title: page.title,
          snapshot,
          reason,
          authorId: by,
          restoredFrom,
          onlyIfChanged: reason === "edited"
        })
        return { page: toPage(rows[0]!), version }
      })
    )
  })

const setTitle = (page: PageRow, title: string) =>
  Effect.gen(function* () {
    const slug = yield* uniqueSlug(page.spaceId, title, page.id)
    yield* query("UPDATE wiki_pages SET title = $2, slug = $3 WHERE id = $1", [page.id, title, slug])
  })

/**
 * After a committed write: the page's model is rebuilt before its next
 * message; with `subtree`, its descendants' too (they show its title and
 * icon in their breadcrumbs and inherit its restriction).
 */
const refreshing = <A, E, R>(
  ctx: { readonly address: { readonly id: string }; readonly reload: () => void },
  subtree: boolean,
  write: Effect.Effect<A, E, R>
) =>
  Effect.tap(write, () =>
    Effect.andThen(
      Effect.sync(ctx.reload),
      subtree
        ? Effect.flatMap(Effect.orDie(subtreeIds(ctx.address.id)), (ids) => invalidatePages(ids.filter((id) => id !== ctx.address.id)))
        : Effect.void
    )
  )

/** Why a write to a page is refused before it starts: the page is gone, or it or its space is archived. */
const Active = [WikiPageNotFound, WikiSpaceArchived, WikiPageArchived] as const
const ActiveErrors = Schema.Union(Active)

export const WikiPage = Actor<PageModel | null>()({
  kind: "wikiPage",
  state: Schema.NullOr(PageModel),
  initial: () => null,
  rebuild: rebuildPage,
  messages: {
    /** The page's metadata, permission entries and ancestors, from memory. */
    view: { payload: Schema.Struct({}), success: PageModel, error: WikiPageNotFound },
    update: {
      payload: Schema.Struct({
        ...By,
        title: Schema.optionalKey(Schema.String),
        icon: Schema.optionalKey(NullableString),
        coverImage: Schema.optionalKey(NullableString)
      }),
      success: PageRecord,
      error: Schema.Union([...Active, WikiSlugClash])
    },
    /** Replaces the content, or appends blocks to it, through the live document. */
    setContent: {
      payload: Schema.Struct({
        ...By,
        content: ProseMirrorNode,
        mode: Schema.Literals(["replace", "append"]),
        reason: Schema.Literals(["created", "edited"])
      }),
      success: PageRecord,
      error: ActiveErrors
    },
    saveVersion: { payload: Schema.Struct({ ...By, label: NullableString }), success: VersionRecord, error: WikiPageNotFound },
    restoreVersion: {
      payload: Schema.Struct({ ...By, versionId: Schema.String }),
      success: VersionRecord,
      error: Schema.Union([...Active, WikiVersionNotFound, WikiSlugClash])
    },
    /** Someone edited live: refresh the text projection and links. */
    documentChanged: { payload: Schema.Struct({}), success: Schema.Void, error: Schema.Never },
    /** The periodic version of live editing (skipped when nothing changed since the last version). */
    autosave: { payload: Schema.Struct({}), success: Schema.Void, error: Schema.Never },
    /** Removes the live document (after the page was deleted for good). */
    dispose: { payload: Schema.Struct({}), success: Schema.Void, error: Schema.Never },
    setRestriction: {
      payload: Schema.Struct({ ...By, restriction: PageRestriction, keepEditor: Schema.Boolean }),
      success: PageRecord,
      error: ActiveErrors
    },
    grantAccess: {
      payload: Schema.Struct({ ...By, subject: Subject, access: PageAccessLevel }),
      success: PagePermissionRecord,
      error: Schema.Union([...Active, WikiPageNotRestricted, WikiSubjectNotMember])
    },
    revokeAccess: {
      payload: Schema.Struct({ ...By, entryId: Schema.String }),
      success: Schema.Void,
      error: Schema.Union([...Active, WikiPermissionEntryNotFound])
    },
    addComment: {
      payload: Schema.Struct({
        ...By,
        commentId: Schema.String,
        parentId: NullableString,
        body: Schema.String,
        anchor: Schema.NullOr(Schema.Struct({ start: Schema.String, end: Schema.String, quote: Schema.String })),
        mentions: Schema.Array(Schema.String)
      }),
      success: CommentRecord,
      error: Schema.Union([...Active, WikiCommentNotFound, WikiReplyToReply, WikiThreadDeleted, WikiReplyAnchored])
    },
    /** Only the author edits a comment. */
    editComment: {
      payload: Schema.Struct({ ...By, commentId: Schema.String, body: Schema.String, mentions: Schema.Array(Schema.String) }),
      success: CommentRecord,
      error: Schema.Union([...Active, WikiCommentNotFound, WikiCommentNotYours])
    },
    /** The author, or a moderator (space admin), deletes a comment; a thread's root with replies stays as "deleted". */
    deleteComment: {
      payload: Schema.Struct({ ...By, commentId: Schema.String, moderator: Schema.Boolean }),
      success: Schema.Void,
      error: Schema.Union([...Active, WikiCommentNotFound, WikiCommentNotYours])
    },
    /** Resolves or reopens a thread (its root comment). */
    setResolved: {
      payload: Schema.Struct({ ...By, commentId: Schema.String, resolved: Schema.Boolean }),
      success: CommentRecord,
      error: Schema.Union([...Active, WikiCommentNotFound, WikiResolveReply])
    },
    /** Records an attachment whose bytes are already in the blob store. */
    addAttachment: {
      payload: Schema.Struct({
        ...By,
        attachmentId: Schema.String,
        filename: Schema.String,
        contentType: Schema.String,
        size: Schema.Number,
        blobKey: Schema.String
      }),
      success: AttachmentRecord,
      error: ActiveErrors
    },
    /** Forgets an attachment; answers its blob key (to delete the bytes). */
    removeAttachment: {
      payload: Schema.Struct({ ...By, attachmentId: Schema.String }),
      success: Schema.String,
      error: Schema.Union([...Active, WikiAttachmentNotFound])
    }
  },
  handlers: {
    view: (_payload, ctx) => (ctx.state === null ? Effect.fail(new WikiPageNotFound()) : Effect.succeed(ctx.state)),

    update: ({ by, ...patch }, ctx) =>
      refreshing(
        ctx,
        patch.title !== undefined || patch.icon !== undefined,
        retryOnSlugClash(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            // A new title or icon shows in the space's tree: its readers are told.
            const shown =
              (patch.title !== undefined && patch.title.trim() !== page.title) || (patch.icon !== undefined && patch.icon !== page.icon)
            return yield* withWikiEvents(
              Effect.gen(function* () {
                if (patch.title !== undefined && patch.title.trim() !== page.title) yield* setTitle(page, patch.title.trim())
                const columns: Array<[string, unknown]> = []
                if (patch.icon !== undefined) columns.push(["icon", patch.icon])
                if (patch.coverImage !== undefined) columns.push(["cover_image", patch.coverImage])
                const sets = columns.map(([column], i) => `${column} = $${i + 3}, `).join("")
                const rows = yield* query(
                  `UPDATE wiki_pages SET ${sets}updated_by = $2, updated_at = now() WHERE id = $1 RETURNING ${PAGE_COLUMNS}`,
                  [page.id, by, ...columns.map(([, value]) => value)]
                )
                return toPage(rows[0]!)
              }),
              () => (shown ? [pageEvent(page, by, "page.updated")] : [])
            )
          })
        )
      ),

    setContent: ({ by, content, mode, reason }, ctx) =>
      refreshing(
        ctx,
        false,
        orDieSql(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            const live = yield* LiveDocuments
            yield* mode === "replace" ? live.replace(page.id, content) : live.append(page.id, content)
            return (yield* afterContentChange(page, by, reason, null)).page
          })
        )
      ),

    saveVersion: ({ by, label }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* existingPage(ctx.address.id)
          const snapshot = yield* (yield* LiveDocuments).snapshot(page.id)
          const editors = yield* (yield* LiveDocuments).editors(page.id)
          const version = yield* captureVersion({
            pageId: page.id,
            workspaceId: page.workspaceId,
            title: page.title,
            snapshot,
            reason: "saved",
            authorId: by,
            contributors: editors.map((editor) => editor.userId),
            label,
            onlyIfChanged: false
          })
          return version!
        })
      ),

    restoreVersion: ({ by, versionId }, ctx) =>
      refreshing(
        ctx,
        true,
        retryOnSlugClash(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            const version = yield* versionContent(page.id, versionId)
            if (version === undefined) return yield* new WikiVersionNotFound()
            yield* (yield* LiveDocuments).restore(page.id, version.state)
            if (version.record.title !== page.title) yield* setTitle(page, version.record.title)
            const restored = yield* afterContentChange({ ...page, title: version.record.title }, by, "restored", version.record.id)
            return restored.version!
          })
        )
      ),

    documentChanged: (_payload, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* pageById(ctx.address.id)
          if (page === undefined) return
          const live = yield* LiveDocuments
          const snapshot = yield* live.snapshot(page.id)
          const editors = yield* live.editors(page.id)
          // Formatting-only changes leave updated_at alone; text changes name who was editing.
          const written = yield* query(
            `UPDATE wiki_pages SET content_text = $2, updated_at = now(), updated_by = COALESCE($3, updated_by)
            WHERE id = $1 AND content_text IS DISTINCT FROM $2 RETURNING ${PAGE_COLUMNS}`,
            [page.id, snapshot.text, editors[0]?.userId ?? null]
          )
          yield* recordLinks(page.id, page.workspaceId, snapshot.content)
          // The search indexer writes the same statement on the same change: when it came first, read what it wrote.
          const row = written[0] !== undefined ? toPage(written[0]) : yield* pageById(page.id)
          if (ctx.state !== null && row !== undefined) ctx.setState({ ...ctx.state, page: row })
        })
      ),

    autosave: (_payload, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* pageById(ctx.address.id)
          if (page === undefined) return
          const latest = yield* latestVersion(page.id)
          if (latest !== undefined && Date.now() - Date.parse(latest.record.createdAt) < autosaveIntervalMillis()) return
          const live = yield* LiveDocuments
          const snapshot = yield* live.snapshot(page.id)
          const editors = (yield* live.editors(page.id)).map((editor) => editor.userId)
          yield* captureVersion({
            pageId: page.id,
            workspaceId: page.workspaceId,
            title: page.title,
            snapshot,
            reason: "autosaved",
            authorId: editors[0] ?? page.updatedBy,
            contributors: editors,
            onlyIfChanged: true
          })
        })
      ),

    dispose: (_payload, ctx) => LiveDocuments.use((live) => live.remove(ctx.address.id)),

    setRestriction: ({ by, restriction, keepEditor }, ctx) =>
      refreshing(
        ctx,
        true,
        orDieSql(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            return yield* transaction(
              Effect.gen(function* () {
                if (restriction === "open") {
                  yield* query("DELETE FROM wiki_page_permissions WHERE page_id = $1", [page.id])
                } else if (keepEditor) {
                  // Whoever restricts a page keeps editing it (unless they are a space admin, who always may).
                  const own = (yield* pagePermissions(page.id)).find((entry) => entry.userId === by)
                  if (own === undefined) {
                    yield* query(
                      `INSERT INTO wiki_page_permissions (id, page_id, space_id, workspace_id, user_id, access, created_by)
                 VALUES ($1, $2, $3, $4, $5, 'edit', $5)`,
                      [randomUUID(), page.id, page.spaceId, page.workspaceId, by]
                    )
                  } else if (own.access !== "edit") {
                    yield* query("UPDATE wiki_page_permissions SET access = 'edit', updated_at = now() WHERE id = $1", [own.id])
                  }
                }
                const rows = yield* query(
                  `UPDATE wiki_pages SET restriction = $2, updated_by = $3, updated_at = now() WHERE id = $1 RETURNING ${PAGE_COLUMNS}`,
                  [page.id, restriction, by]
                )
                return toPage(rows[0]!)
              })
            )
          })
        )
      ),

    grantAccess: ({ by, subject, access }, ctx) =>
      refreshing(
        ctx,
        true,
        orDieSql(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            if (page.restriction === "open") {
              return yield* new WikiPageNotRestricted()
            }
            const userId = "userId" in subject ? subject.userId : null
            const workspaceRole = "workspaceRole" in subject ? subject.workspaceRole : null
            if (userId !== null) yield* memberCheck(page.workspaceId, userId)
            const same = (entry: { userId: string | null; workspaceRole: string | null }) =>
              userId !== null ? entry.userId === userId : entry.workspaceRole === workspaceRole
            const existing = (yield* pagePermissions(page.id)).find(same)
            if (existing !== undefined) {
              yield* query("UPDATE wiki_page_permissions SET access = $2, updated_at = now() WHERE id = $1", [existing.id, access])
            } else {
              // The entry and the notice that the page was shared with the user commit together.
              const entryId = randomUUID()
              yield* transaction(
                Effect.gen(function* () {
                  yield* query(
                    `INSERT INTO wiki_page_permissions (id, page_id, space_id, workspace_id, user_id, workspace_role, access, created_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                    [entryId, page.id, page.spaceId, page.workspaceId, userId, workspaceRole, access, by]
                  )
                  if (userId !== null) yield* enqueueNotifications(wikiShareEntry({ ...pageNotice(page), entryId, userId, by, access }))
                })
              )
            }
            return (yield* pagePermissions(page.id)).find(same)!
          })
        )
      ),

    revokeAccess: ({ entryId }, ctx) =>
      refreshing(
        ctx,
        true,
        orDieSql(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            const deleted = yield* query("DELETE FROM wiki_page_permissions WHERE id = $1 AND page_id = $2 RETURNING id", [
              entryId,
              page.id
            ])
            if (deleted.length === 0) return yield* new WikiPermissionEntryNotFound({ on: "page" })
          })
        )
      ),

    addComment: ({ by, commentId, parentId, body, anchor, mentions }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* activePage(ctx.address.id)
          let threadAuthorId: string | null = null
          if (parentId !== null) {
            const parent = yield* commentOfPage(page.id, parentId)
            if (parent.parentId !== null) return yield* new WikiReplyToReply()
            if (parent.deletedAt !== null) return yield* new WikiThreadDeleted()
            if (anchor !== null) return yield* new WikiReplyAnchored()
            threadAuthorId = parent.authorId
          }
          return yield* withWikiEvents(
            Effect.gen(function* () {
              yield* query(
                `INSERT INTO wiki_comments (id, page_id, space_id, workspace_id, parent_id, author_id, body, anchor_start, anchor_end, anchor_quote)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
                [
                  commentId,
                  page.id,
                  page.spaceId,
                  page.workspaceId,
                  parentId,
                  by,
                  body,
                  anchor === null ? null : Buffer.from(anchor.start, "base64"),
                  anchor === null ? null : Buffer.from(anchor.end, "base64"),
                  anchor?.quote ?? null
                ]
              )
              yield* setMentions(commentId, page.workspaceId, mentions)
              yield* enqueueNotifications(
                wikiCommentEntries({ ...pageNotice(page), id: commentId, authorId: by, mentions, threadAuthorId })
              )
              return (yield* commentById(commentId))!
            }),
            () => [pageEvent(page, by, "comment.created", { commentId, threadId: parentId ?? commentId })]
          )
        })
      ),

    editComment: ({ by, commentId, body, mentions }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* activePage(ctx.address.id)
          const comment = yield* commentOfPage(page.id, commentId)
          if (comment.deletedAt !== null) return yield* new WikiCommentNotFound()
          if (comment.authorId !== by) return yield* new WikiCommentNotYours({ action: "edit" })
          return yield* withWikiEvents(
            Effect.gen(function* () {
              yield* query("UPDATE wiki_comments SET body = $2, edited_at = now(), updated_at = now() WHERE id = $1", [commentId, body])
              yield* setMentions(commentId, page.workspaceId, mentions)
              // Only a newly mentioned user is notified: the others' rows exist already.
              yield* enqueueNotifications(
                wikiCommentEntries({ ...pageNotice(page), id: commentId, authorId: by, mentions, threadAuthorId: null })
              )
              return (yield* commentById(commentId))!
            }),
            () => [pageEvent(page, by, "comment.updated", { commentId, threadId: comment.parentId ?? commentId })]
          )
        })
      ),

    deleteComment: ({ by, commentId, moderator }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* activePage(ctx.address.id)
          const comment = yield* commentOfPage(page.id, commentId)
          if (comment.deletedAt !== null) return yield* new WikiCommentNotFound()
          if (comment.authorId !== by && !moderator) return yield* new WikiCommentNotYours({ action: "delete" })
          yield* withWikiEvents(
            Effect.gen(function* () {
              const replies = yield* query<{ id: string }>("SELECT id FROM wiki_comments WHERE parent_id = $1", [commentId])
              if (comment.parentId === null && replies.length > 0) {
                // The replies keep their thread: the root stays, emptied.
                yield* query("UPDATE wiki_comments SET body = '', deleted_at = now(), updated_at = now() WHERE id = $1", [commentId])
                yield* query("DELETE FROM wiki_comment_mentions WHERE comment_id = $1", [commentId])
                return
              }
              yield* query("DELETE FROM wiki_comments WHERE id = $1", [commentId])
              if (comment.parentId !== null) {
                // The last reply of a deleted root takes the root along.
                yield* query(
                  `DELETE FROM wiki_comments p WHERE p.id = $1 AND p.deleted_at IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM wiki_comments r WHERE r.parent_id = p.id)`,
                  [comment.parentId]
                )
              }
            }),
            () => [pageEvent(page, by, "comment.deleted", { commentId, threadId: comment.parentId ?? commentId })]
          )
        })
      ),

    setResolved: ({ by, commentId, resolved }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* activePage(ctx.address.id)
          const comment = yield* commentOfPage(page.id, commentId)
          if (comment.parentId !== null) return yield* new WikiResolveReply()
          if (comment.deletedAt !== null) return yield* new WikiCommentNotFound()
          if (resolved !== (comment.resolvedAt !== null)) {
            yield* withWikiEvents(
              resolved
                ? query("UPDATE wiki_comments SET resolved_at = now(), resolved_by = $2, updated_at = now() WHERE id = $1", [commentId, by])
                : query("UPDATE wiki_comments SET resolved_at = NULL, resolved_by = NULL, updated_at = now() WHERE id = $1", [commentId]),
              () => [pageEvent(page, by, resolved ? "comment.resolved" : "comment.reopened", { commentId, threadId: commentId })]
            )
          }
          return (yield* commentById(commentId))!
        })
      ),

    addAttachment: ({ by, attachmentId, filename, contentType, size, blobKey }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const page = yield* activePage(ctx.address.id)
          yield* query(
            `INSERT INTO wiki_attachments (id, page_id, space_id, workspace_id, filename, content_type, size, blob_key, uploaded_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [attachmentId, page.id, page.spaceId, page.workspaceId, filename, contentType, size, blobKey, by]
          )
          return (yield* attachmentById(attachmentId))!
        })
      ),

    removeAttachment: ({ attachmentId }, ctx) =>
      refreshing(
        ctx,
        false,
        orDieSql(
          Effect.gen(function* () {
            const page = yield* activePage(ctx.address.id)
            const deleted = yield* query<{ blob_key: string }>(
              "DELETE FROM wiki_attachments WHERE id = $1 AND page_id = $2 RETURNING blob_key",
              [attachmentId, page.id]
            )
            if (deleted.length === 0) return yield* new WikiAttachmentNotFound()
            // A page whose cover was this image loses its cover.
            const uncovered = yield* query<{ id: string }>("UPDATE wiki_pages SET cover_image = NULL WHERE cover_image = $1 RETURNING id", [
              `attachment:${attachmentId}`
            ])
            yield* invalidatePages(uncovered.map((row) => row.id))
            return deleted[0]!.blob_key
          })
        )
      )
  }
})
