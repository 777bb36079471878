/**
 * Public links to one task: whoever holds the link reads that task (and,
 * when the link says so, its subtasks and comments) without an account,
 * until the link expires or is revoked, the task is deleted, the workspace
 * turns public sharing off or is deleted. Only a hash of the token is kept:
 * the link is shown once, when it is made. The workspace's `PmOrganization`
 * actor is the single writer of `pm_share_links`; creating, changing and
 * revoking a link are change events of the task (`share_link.*`).
 *
 * What a public reader sees is limited to what the task says, never who is
 * who inside the workspace: names but no e-mail addresses (addresses inside
 * descriptions and comments are replaced by the person's name, or hidden),
 * no internal ids, no custom fields that hold people or contact details.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import {
  ExpiryInPast,
  OrganizationRefused,
  PublicSharingTurnedOff,
  ShareLinkAlreadyRevoked,
  ShareLinkGone,
  ShareLinkNotFound,
  ShareLinkRevoked,
  ShareLinkTooLong
} from "./OrganizationErrors.ts"
import { TaskNotFound } from "./PmErrors.ts"
import { Id, Timestamp } from "../Fields.ts"
import { usersByIds, workspaceById } from "../identity/IdentityQueries.ts"
import { change } from "./Changes.ts"
import { findTask, locateTask } from "./Locate.ts"
import { userRefs } from "./Members.ts"
import { type Viewer, visibleSpace } from "./StructureReads.ts"
import { getTask } from "./TaskReads.ts"
import { command } from "./WorkActor.ts"
import { configOf } from "./WorkspaceConfig.ts"
import { statusesOfLists } from "./Statuses.ts"

export const TOKEN_PREFIX = "pmsh_"
export const ShareToken = Schema.String.check(
  Schema.isPattern(/^pmsh_[A-Za-z0-9_-]{43}$/, { expected: "a share token (pmsh_ followed by 43 characters)" })
).annotate({ description: "The secret part of a public link" })

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex")
const newToken = () => `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`

export const LinkStatus = Schema.Literals(["active", "expired", "revoked"])

export const ShareLink = Schema.Struct({
  id: Id,
  workspaceId: Id,
  taskId: Id,
  taskShortId: Schema.String,
  taskName: Schema.String,
  tokenPrefix: Schema.String.annotate({
    description: "The token's first characters, to tell links apart (the token itself is shown once)"
  }),
  includeSubtasks: Schema.Boolean,
  includeComments: Schema.Boolean,
  status: LinkStatus,
  createdBy: Schema.Struct({ id: Id, name: Schema.String }),
  createdAt: Timestamp,
  expiresAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp),
  viewCount: Schema.Number,
  lastViewedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "ShareLink", description: "A public read-only link to one task." })
export type ShareLink = typeof ShareLink.Type

interface LinkRow {
  id: string
  workspaceId: string
  taskId: string
  taskShortId: string
  taskName: string
  tokenPrefix: string
  includeSubtasks: boolean
  includeComments: boolean
  createdBy: string
  createdAt: string
  expiresAt: string | null
  revokedAt: string | null
  viewCount: number
  lastViewedAt: string | null
}

const linkSelect = `SELECT k.id, k.workspace_id AS "workspaceId", k.task_id AS "taskId", t.short_id AS "taskShortId", t.name AS "taskName",
  k.token_prefix AS "tokenPrefix", k.include_subtasks AS "includeSubtasks", k.include_comments AS "includeComments", k.created_by AS "createdBy",
  k.created_at AS "createdAt", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.view_count AS "viewCount", k.last_viewed_at AS "lastViewedAt"
  FROM pm_share_links k JOIN pm_tasks t ON t.id = k.task_id JOIN pm_spaces s ON s.id = t.space_id`

export const statusOf = (row: { revokedAt: string | null; expiresAt: string | null }) =>
  row.revokedAt !== null
    ? ("revoked" as const)
    : row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()
      ? ("expired" as const)
      : ("active" as const)

const present = (rows: ReadonlyArray<LinkRow>) =>
  Effect.map(userRefs(rows.map((r) => r.createdBy)), (users) =>
    rows.map(
      ({ createdBy, ...row }): ShareLink => ({
        ...row,
        status: statusOf(row),
        createdBy: { id: createdBy, name: users.get(createdBy)?.name ?? "" }
      })
    )
  )

const statusCondition = (status: string | undefined) =>
  status === "active"
    ? "AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())"
    : status === "revoked"
      ? "AND k.revoked_at IS NOT NULL"
      : status === "expired"
        ? "AND k.revoked_at IS NULL AND k.expires_at <= now()"
        : ""

export const linksOfTask = (taskId: string, status?: string) =>
  Effect.flatMap(
    query<LinkRow>(`${linkSelect} WHERE k.task_id = $1 ${statusCondition(status)} ORDER BY k.created_at DESC, k.id`, [taskId]),
    present
  )

/** Links of the workspace's tasks the viewer may see (deleted tasks left out), newest first. */
export const linksOfWorkspace = (
  workspaceId: string,
  viewer: Viewer,
  filter: { readonly status?: string; readonly createdBy?: string; readonly offset: number; readonly limit: number }
) =>
  Effect.gen(function* () {
    const where = `WHERE k.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
      AND ($4::text IS NULL OR k.created_by = $4) ${statusCondition(filter.status)}`
    const params = [workspaceId, viewer.userId, viewer.admin, filter.createdBy ?? null]
    const total = yield* query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_share_links k JOIN pm_tasks t ON t.id = k.task_id JOIN pm_spaces s ON s.id = t.space_id ${where}`,
      params
    )
    const rows = yield* query<LinkRow>(`${linkSelect} ${where} ORDER BY k.created_at DESC, k.id LIMIT $5 OFFSET $6`, [
      ...params,
      filter.limit,
      filter.offset
    ])
    return { items: yield* present(rows), total: total[0]!.n, offset: filter.offset, limit: filter.limit }
  })

export const getLink = (linkId: string): Effect.Effect<ShareLink, ShareLinkNotFound | SqlError, Sql> =>
  Effect.gen(function* () {
    const rows = yield* query<LinkRow>(`${linkSelect} WHERE k.id = $1`, [linkId])
    if (rows.length === 0) return yield* new ShareLinkNotFound()
    return (yield* present(rows))[0]!
  })

// ---------------------------------------------------------------------------
// Commands of the workspace's PmOrganization actor

/** What a link shows and until when (absent: unchanged, or the default when made). */
export const LinkOptions = Schema.Struct({
  expiresAt: Schema.optionalKey(Schema.NullOr(Timestamp)),
  includeSubtasks: Schema.optionalKey(Schema.Boolean.annotate({ description: "Show the task's subtasks (default false)" })),
  includeComments: Schema.optionalKey(Schema.Boolean.annotate({ description: "Show the task's comments, authors by name (default false)" }))
})

const LinkRef = Schema.Struct({ linkId: Id })

const checkExpiry = (workspaceId: string, expiresAt: string | null | undefined, path: string) =>
  Effect.gen(function* () {
    const config = yield* configOf(workspaceId)
    if (!config.features.publicSharing) return yield* new PublicSharingTurnedOff()
    if (expiresAt != null && Date.parse(expiresAt) <= Date.now()) return yield* new ExpiryInPast({ field: path })
    const maxDays = config.security.maxShareLinkDays
    if (maxDays !== null) {
      if (expiresAt == null) return yield* new ShareLinkTooLong({ maxDays, field: path, problem: "required by the workspace policy" })
      if (Date.parse(expiresAt) > Date.now() + maxDays * 86_400_000)
        return yield* new ShareLinkTooLong({ maxDays, field: path, problem: `more than ${maxDays} days ahead` })
    }
  })

const linkWhere = (link: { workspaceId: string; taskId: string }) =>
  Effect.map(findTask(link.taskId), (at) => ({ workspaceId: at.workspaceId, spaceId: at.spaceId, listId: at.listId, taskId: at.taskId }))

export const shareLinkCommands = {
  createShareLink: command(
    Schema.Struct({ ...LinkOptions.fields, taskId: Id }),
    Schema.Struct({ link: ShareLink, token: ShareToken }),
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const at = yield* findTask(input.taskId)
        if (at.workspaceId !== workspaceId) return yield* new TaskNotFound()
        yield* checkExpiry(workspaceId, input.expiresAt, "body.expiresAt")
        const id = crypto.randomUUID()
        const token = newToken()
        yield* query(
          `INSERT INTO pm_share_links (id, workspace_id, task_id, token_hash, token_prefix, include_subtasks, include_comments, created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            id,
            workspaceId,
            input.taskId,
            hashToken(token),
            token.slice(0, TOKEN_PREFIX.length + 6),
            input.includeSubtasks ?? false,
            input.includeComments ?? false,
            by,
            input.expiresAt ?? null
          ]
        )
        const link = yield* getLink(id)
        return {
          result: { link, token },
          changes: [
            change(
              { workspaceId, spaceId: at.spaceId, listId: at.listId, taskId: at.taskId },
              "share_link.created",
              id,
              { linkId: id, expiresAt: link.expiresAt, includeSubtasks: link.includeSubtasks, includeComments: link.includeComments },
              by
            )
          ]
        }
      })
  ),

  updateShareLink: command(Schema.Struct({ ...LinkOptions.fields, linkId: Id }), ShareLink, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const link = yield* getLink(input.linkId)
      if (link.workspaceId !== workspaceId) return yield* new ShareLinkNotFound()
      if (link.status === "revoked") return yield* new ShareLinkRevoked()
      if (input.expiresAt !== undefined) yield* checkExpiry(workspaceId, input.expiresAt, "body.expiresAt")
      yield* query(
        `UPDATE pm_share_links SET expires_at = CASE WHEN $2::boolean THEN $3::timestamptz ELSE expires_at END,
                include_subtasks = COALESCE($4, include_subtasks), include_comments = COALESCE($5, include_comments) WHERE id = $1`,
        [link.id, input.expiresAt !== undefined, input.expiresAt ?? null, input.includeSubtasks ?? null, input.includeComments ?? null]
      )
      const updated = yield* getLink(link.id)
      const data = Object.fromEntries(
        Object.entries({
          expiresAt: input.expiresAt,
          includeSubtasks: input.includeSubtasks,
          includeComments: input.includeComments
        }).filter(([, v]) => v !== undefined)
      )
      return { result: updated, changes: [change(yield* linkWhere(link), "share_link.updated", link.id, { linkId: link.id, ...data }, by)] }
    })
  ),

  revokeShareLink: command(LinkRef, ShareLink, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const link = yield* getLink(input.linkId)
      if (link.workspaceId !== workspaceId) return yield* new ShareLinkNotFound()
      if (link.status === "revoked") return yield* new ShareLinkAlreadyRevoked()
      yield* query(`UPDATE pm_share_links SET revoked_at = now(), revoked_by = $2 WHERE id = $1`, [link.id, by])
      return {
        result: yield* getLink(link.id),
        changes: [change(yield* linkWhere(link), "share_link.revoked", link.id, { linkId: link.id }, by)]
      }
    })
  ),

  /** Counts a public view (no change event: reading is not a change). */
  recordShareView: command(LinkRef, Schema.Void, OrganizationRefused, (input, _by, workspaceId) =>
    Effect.gen(function* () {
      yield* query(`UPDATE pm_share_links SET view_count = view_count + 1, last_viewed_at = now() WHERE id = $1 AND workspace_id = $2`, [
        input.linkId,
        workspaceId
      ])
      return { result: undefined, changes: [] }
    })
  )
}

// ---------------------------------------------------------------------------
// The public read

export const PublicStatus = Schema.Struct({ name: Schema.String, type: Schema.String, color: Schema.String })

export const SharedTask = Schema.Struct({
  workspace: Schema.Struct({ name: Schema.String }),
  task: Schema.Struct({
    shortId: Schema.String,
    name: Schema.String,
    description: Schema.String,
    status: PublicStatus,
    priority: Schema.NullOr(Schema.String),
    startDate: Schema.NullOr(Timestamp),
    dueDate: Schema.NullOr(Timestamp),
    closedAt: Schema.NullOr(Timestamp),
    list: Schema.String,
    tags: Schema.Array(Schema.String),
    assignees: Schema.Array(Schema.Struct({ name: Schema.String })),
    customFields: Schema.Record(Schema.String, Schema.Unknown),
    createdAt: Timestamp,
    updatedAt: Timestamp
  }),
  subtasks: Schema.optionalKey(
    Schema.Array(Schema.Struct({ shortId: Schema.String, name: Schema.String, status: PublicStatus, dueDate: Schema.NullOr(Timestamp) }))
  ),
  comments: Schema.optionalKey(
    Schema.Array(Schema.Struct({ author: Schema.String, text: Schema.String, createdAt: Timestamp, replyTo: Schema.NullOr(Schema.Number) }))
  ),
  link: Schema.Struct({ expiresAt: Schema.NullOr(Timestamp) })
}).annotate({ identifier: "SharedTask", description: "A task as its public link shows it: no e-mail addresses, no internal ids." })
export type SharedTask = typeof SharedTask.Type

/** Field types that hold people or contact details: never shown publicly. */
const privateFieldTypes = new Set(["users", "email", "phone"])

const EMAIL = /@?[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g

/** Replaces e-mail addresses by the member's name (`@Name` for mentions), or hides them. */
export const redactEmails = (text: string, names: ReadonlyMap<string, string>) =>
  text.replace(EMAIL, (match) => {
    const mention = match.startsWith("@")
    const name = names.get((mention ? match.slice(1) : match).toLowerCase())
    return name ? `${mention ? "@" : ""}${name}` : "[hidden]"
  })

const displayValue = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(displayValue)
    : value && typeof value === "object" && "name" in value
      ? (value as { name: string }).name
      : value

interface ActiveLink {
  id: string
  workspaceId: string
  taskId: string
  includeSubtasks: boolean
  includeComments: boolean
  expiresAt: string | null
}

/** The link a token opens, if it still works (otherwise 404, whatever the reason). */
export const openLink = (token: string) =>
  Effect.gen(function* () {
    const gone = new ShareLinkGone()
    const rows = yield* query<ActiveLink & { revokedAt: string | null }>(
      `SELECT id, workspace_id AS "workspaceId", task_id AS "taskId", include_subtasks AS "includeSubtasks", include_comments AS "includeComments",
              expires_at AS "expiresAt", revoked_at AS "revokedAt"
         FROM pm_share_links WHERE token_hash = $1`,
      [hashToken(token)]
    )
    const link = rows[0]
    if (link === undefined || statusOf(link) !== "active") return yield* gone
    if ((yield* workspaceById(link.workspaceId)) === undefined) return yield* gone
    if (!(yield* configOf(link.workspaceId)).features.publicSharing) return yield* gone
    const located = yield* Effect.option(locateTask(link.taskId))
    if (located._tag === "None") return yield* gone
    return link as ActiveLink
  })

/** What the public sees of the task a link opens. */
export const sharedView = (link: ActiveLink) =>
  Effect.gen(function* () {
    const task = yield* getTask(link.taskId)
    const workspace = yield* workspaceById(link.workspaceId)
    const list = yield* query<{ name: string }>(`SELECT name FROM pm_lists WHERE id = $1`, [task.listId])
    const subtasks = link.includeSubtasks
      ? yield* query<{ shortId: string; name: string; status: string; listId: string; dueDate: string | null }>(
          `SELECT short_id AS "shortId", name, status, list_id AS "listId", due_date AS "dueDate" FROM pm_tasks
          WHERE parent_task_id = $1 AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position, created_at`,
          [task.id]
        )
      : []
    const comments = link.includeComments
      ? yield* query<{ id: string; parentId: string | null; authorId: string; text: string; createdAt: string }>(
          `SELECT id, parent_comment_id AS "parentId", author_id AS "authorId", text, created_at AS "createdAt" FROM pm_comments
          WHERE task_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
          [task.id]
        )
      : []
    const members = yield* usersByIds((workspace?.members ?? []).map((m) => m.userId))
    const byEmail = new Map([...members.values()].map((m) => [m.email.toLowerCase(), m.name] as const))
    const authors = yield* userRefs(comments.map((c) => c.authorId))
    const subtaskStatuses = yield* statusesOfLists(subtasks.map((s) => s.listId))
    const statusOfSubtask = (s: { status: string; listId: string }) => {
      const found = subtaskStatuses.get(s.listId)?.find((st) => st.name.toLowerCase() === s.status.toLowerCase())
      return found ? { name: found.name, type: found.type, color: found.color } : { name: s.status, type: "open", color: "#87909e" }
    }
    const index = new Map(comments.map((c, i) => [c.id, i] as const))
    const view: SharedTask = {
      workspace: { name: workspace?.name ?? "" },
      task: {
        shortId: task.shortId,
        name: task.name,
        description: redactEmails(task.description, byEmail),
        status: task.status,
        priority: task.priority,
        startDate: task.startDate,
        dueDate: task.dueDate,
        closedAt: task.closedAt,
        list: list[0]?.name ?? "",
        tags: task.tags.map((t) => t.name),
        assignees: task.assignees.map((a) => ({ name: a.name })),
        customFields: Object.fromEntries(
          task.customFields.filter((f) => !privateFieldTypes.has(f.type)).map((f) => [f.name, displayValue(f.value)])
        ),
        createdAt: task.createdAt,
        updatedAt: task.updatedAt
      },
      ...(link.includeSubtasks
        ? { subtasks: subtasks.map((s) => ({ shortId: s.shortId, name: s.name, status: statusOfSubtask(s), dueDate: s.dueDate })) }
        : {}),
      ...(link.includeComments
        ? {
            comments: comments.map((c) => ({
              author: authors.get(c.authorId)?.name ?? "Former member",
              text: redactEmails(c.text, byEmail),
              createdAt: c.createdAt,
              replyTo: c.parentId === null ? null : (index.get(c.parentId) ?? null)
            }))
          }
        : {}),
      link: { expiresAt: link.expiresAt }
    }
    return view
  })
