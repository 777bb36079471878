/**
 * feedback tag "Feature Requests (Lite)" (8): feature requests for AI
 * agents — referenced by short id (FR-12), boards by slug or name, statuses
 * and categories by name, people by e-mail; searched with name filters and
 * a cursor. Same rules and the same Board actor as the full operations.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Board } from "../../actors/feedback/Board.ts"
import { visibleTo } from "../../actors/feedback/BoardReads.ts"
import { descriptionFrom } from "../../actors/feedback/Description.ts"
import { type RequestRecord, shortIdOf, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { type BoardCaller, heldFor, onBoard, orDieSql } from "./DeskAccess.ts"
import { ex } from "./deskExamples.ts"
import {
  boardByRef,
  boardsFor,
  Cursor,
  csv,
  cursorPage,
  exactlyOne,
  Id,
  LiteEmail,
  LiteLimit,
  NameRef,
  optionByName,
  userByEmail
} from "./LiteRefs.ts"

const service = "feedback"
const tag = "Feature Requests (Lite)"
const read = ["feedback:read"]
const write = ["feedback:write"]

const RequestRef = Schema.String.check(
  Schema.isPattern(/^(FR-\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    expected: "a short id like FR-12, or an id"
  })
)
const RefParams = Schema.Struct({ requestRef: RequestRef })
const Where = {
  workspaceId: Id,
  board: Schema.optionalKey(NameRef.annotate({ description: "Board slug or name; needed only when the short id is on several boards" }))
}
const Markdown = Schema.String.check(Schema.isMaxLength(50_000))
const Title = Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank title" }))

export const LiteFeatureRequest = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  board: Schema.String.annotate({ description: "Board slug" }),
  title: Schema.String,
  description: Schema.String.annotate({ description: "Markdown" }),
  status: Schema.NullOr(Schema.String),
  statusType: Schema.NullOr(StatusType),
  category: Schema.NullOr(Schema.String),
  productArea: Schema.NullOr(Schema.String),
  authorName: Schema.NullOr(Schema.String),
  authorEmail: Schema.NullOr(Schema.String).annotate({ description: "Shown to the board's team only" }),
  voteCount: Schema.Number,
  commentCount: Schema.Number,
  mergedInto: Schema.NullOr(Schema.String).annotate({ description: "Short id of the original" }),
  moderationState: Schema.Literals(["approved", "pending", "declined"]),
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "LiteFeatureRequest" })
type LiteFeatureRequest = typeof LiteFeatureRequest.Type

const exampleLite = {
  id: ex.featureRequestId,
  shortId: "FR-12",
  board: ex.slug,
  title: "Dark mode",
  description: "A dark theme for the whole app.",
  status: "Open",
  statusType: "open",
  category: null,
  productArea: null,
  authorName: "Alice",
  authorEmail: "alice@example.com",
  voteCount: 0,
  commentCount: 0,
  mergedInto: null,
  moderationState: "approved",
  createdAt: ex.at,
  updatedAt: ex.at
}

/** The records as names, for one board. */
export const liteRequests = (caller: BoardCaller, records: ReadonlyArray<RequestRecord>) =>
  Effect.gen(function* () {
    const users = yield* orDieSql(usersByIds(records.flatMap((r) => (r.authorId === null ? [] : [r.authorId]))))
    const options = new Map(caller.view.options.map((o) => [o.id, o]))
    const merged = records.flatMap((r) => (r.mergedInto === null ? [] : [r.mergedInto]))
    const numbers = new Map<string, number>()
    if (merged.length > 0) {
      for (const target of merged) {
        const found = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "request", { requestId: target }).pipe(Effect.option)
        if (found._tag === "Some") numbers.set(target, found.value.number)
      }
    }
    return records.map((r): LiteFeatureRequest => {
      const status = r.statusId === null ? undefined : options.get(r.statusId)
      const author = r.authorId === null ? undefined : users.get(r.authorId)
      return {
        id: r.id,
        shortId: shortIdOf(r.number),
        board: caller.view.board.slug,
        title: r.title,
        description: r.markdown,
        status: status?.name ?? null,
        statusType: status === undefined ? null : (status.type ?? "open"),
        category: (r.categoryId === null ? undefined : options.get(r.categoryId))?.name ?? null,
        productArea: (r.productAreaId === null ? undefined : options.get(r.productAreaId))?.name ?? null,
        authorName: author?.name ?? r.authorName,
        authorEmail: caller.team ? (author?.email ?? null) : null,
        voteCount: r.voteCount,
        commentCount: r.commentCount,
        mergedInto: r.mergedInto === null ? null : numbers.has(r.mergedInto) ? shortIdOf(numbers.get(r.mergedInto)!) : null,
        moderationState: r.moderationState,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt
      }
    })
  })

const liteOne = (caller: BoardCaller, record: RequestRecord) => Effect.map(liteRequests(caller, [record]), (items) => items[0]!)

const allRequests = (caller: BoardCaller) =>
  Effect.map(
    Effect.flatMap(ActorSystem, (system) =>
      system.ask(Board, caller.view.board.id, "requests", {
        viewerId: caller.userId,
        team: caller.team,
        includeMerged: true,
        sort: "old",
        offset: 0,
        limit: 1_000_000
      })
    ),
    (page) => page.items
  )

/** A request by short id (or id) on the named board or any board the caller sees; 404 / 409 naming the field. */
export const requestByRef = (
  context: RequestContext,
  where: { workspaceId: string; board?: string },
  ref: string,
  path: string,
  boardPath: string
) =>
  Effect.gen(function* () {
    const boards = yield* boardsFor(context, where.workspaceId, where.board, boardPath)
    const byId = !/^FR-/i.test(ref)
    const number = byId ? undefined : Number(ref.slice(3))
    const found: Array<{ caller: BoardCaller; record: RequestRecord }> = []
    for (const caller of boards) {
      for (const record of yield* allRequests(caller)) {
        if ((byId ? record.id === ref.toLowerCase() : record.number === number) && visibleTo(record, caller.userId, caller.team))
          found.push({ caller, record })
      }
    }
    return yield* exactlyOne(
      found,
      "feature request",
      ref.toUpperCase(),
      path,
      (f) => `${shortIdOf(f.record.number)} on ${f.caller.view.board.slug}`
    )
  })

const optionId = (caller: BoardCaller, kind: "category" | "product_area" | "status", name: string | null | undefined, path: string) =>
  name === undefined
    ? Effect.succeed(undefined)
    : name === null
      ? Effect.succeed(null)
      : Effect.map(optionByName(caller, kind, name, path), (o) => o.id)

const SearchQuery = Schema.Struct({
  ...Where,
  status: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Status names, comma-separated (any of them)" })
  ),
  category: Schema.optionalKey(NameRef),
  authorEmail: Schema.optionalKey(LiteEmail),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Words in the title or description" })),
  includeMerged: Schema.optionalKey(Schema.Literals(["true", "false"])),
  limit: Schema.optionalKey(LiteLimit),
  cursor: Schema.optionalKey(Cursor)
})

export const featureRequestsLiteOperations = [
  operation({
    service,
    tag,
    operationId: "createFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests",
    summary: "Post a feature request on a board named by slug or name, with category and status by name",
    description: "Status is the team's to set. Unknown names answer 404 naming them; ambiguous ones 409 listing candidates.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: Id,
      board: NameRef,
      title: Title,
      description: Schema.optionalKey(Markdown),
      category: Schema.optionalKey(NameRef),
      productArea: Schema.optionalKey(NameRef),
      status: Schema.optionalKey(NameRef)
    }),
    responses: {
      201: { description: "Posted", schema: LiteFeatureRequest },
      404: { description: "A name not found" },
      409: { description: "An ambiguous name" }
    },
    examples: [
      {
        name: "post",
        request: {
          body: { workspaceId: ex.workspaceId, board: ex.slug, title: "Dark mode", description: "A dark theme for the whole app." }
        },
        response: { status: 201, body: exampleLite }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const found = yield* boardByRef(context, body.workspaceId, body.board, "body.board")
        const caller = yield* onBoard(context, found.view.board.id, "post")
        if (body.status !== undefined && !caller.admin)
          return yield* reject("forbidden", "Only the board's admins set a status", [{ path: "body.status", message: "admins only" }])
        const categoryId = yield* optionId(caller, "category", body.category, "body.category")
        const productAreaId = yield* optionId(caller, "product_area", body.productArea, "body.productArea")
        const statusId = yield* optionId(caller, "status", body.status, "body.status")
        const description = yield* descriptionFrom(
          { markdown: body.description ?? "" },
          { markdown: "body.description", content: "body.description" }
        )
        const record = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "createRequest", {
          by: caller.userId,
          requestId: randomUUID(),
          title: body.title,
          ...description!,
          ...(categoryId !== undefined ? { categoryId } : {}),
          ...(productAreaId !== undefined ? { productAreaId } : {}),
          ...(statusId ? { statusId } : {}),
          authorId: caller.userId,
          authorName: null,
          moderationState: yield* heldFor(caller)
        })
        return yield* liteOne(caller, record)
      })
  }),
  operation({
    service,
    tag,
    operationId: "getFeatureRequestLite",
    method: "GET",
    path: "/v1/lite/feature-requests/{requestRef}",
    summary: "A feature request by short id (FR-12) or id, with names instead of ids",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest } },
    examples: [
      {
        name: "get",
        request: { params: { requestRef: "FR-12" }, query: { workspaceId: ex.workspaceId } },
        response: { status: 200, body: exampleLite }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(requestByRef(context, query, params.requestRef, "path.requestRef", "query.board"), ({ caller, record }) =>
        liteOne(caller, record)
      )
  }),
  operation({
    service,
    tag,
    operationId: "updateFeatureRequestLite",
    method: "PATCH",
    path: "/v1/lite/feature-requests/{requestRef}",
    summary: "Edit a feature request's title, description, category or product area by name (its author or a board admin)",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      ...Where,
      title: Schema.optionalKey(Title),
      description: Schema.optionalKey(Markdown),
      category: Schema.optionalKey(Schema.NullOr(NameRef)),
      productArea: Schema.optionalKey(Schema.NullOr(NameRef))
    }),
    responses: { 200: { description: "Edited", schema: LiteFeatureRequest } },
    examples: [
      {
        name: "retitle",
        request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, title: "Dark mode everywhere" } },
        response: { status: 200, body: { ...exampleLite, title: "Dark mode everywhere" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        if (!caller.admin && record.authorId !== caller.userId)
          return yield* reject("forbidden", "Only the author or a board admin may edit this request")
        const categoryId = yield* optionId(caller, "category", body.category, "body.category")
        const productAreaId = yield* optionId(caller, "product_area", body.productArea, "body.productArea")
        const description = yield* descriptionFrom(
          { markdown: body.description },
          { markdown: "body.description", content: "body.description" }
        )
        const updated = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "updateRequest", {
          by: caller.userId,
          requestId: record.id,
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(description !== undefined ? description : {}),
          ...(categoryId !== undefined ? { categoryId } : {}),
          ...(productAreaId !== undefined ? { productAreaId } : {})
        })
        return yield* liteOne(caller, updated)
      })
  }),
  operation({
    service,
    tag,
    operationId: "searchFeatureRequestsLite",
    method: "GET",
    path: "/v1/lite/feature-requests",
    summary: "Search feature requests by board, status and category names, author e-mail and text; paged by cursor",
    description: "Oldest first (then by id); `nextCursor` continues after the last item and is null on the last page.",
    auth: "both",
    scopes: read,
    query: SearchQuery,
    responses: {
      200: {
        description: "A page",
        schema: Schema.Struct({ items: Schema.Array(LiteFeatureRequest), nextCursor: Schema.NullOr(Schema.String) })
      },
      404: { description: "A name or e-mail not found" },
      409: { description: "An ambiguous name" }
    },
    examples: [
      {
        name: "open",
        request: { query: { workspaceId: ex.workspaceId, board: ex.slug, status: "Open" } },
        response: { status: 200, body: { items: [exampleLite], nextCursor: null } }
      }
    ],
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const boards = yield* boardsFor(context, q.workspaceId, q.board, "query.board")
        const author = q.authorEmail === undefined ? undefined : yield* userByEmail(q.authorEmail, "query.authorEmail")
        const items: Array<LiteFeatureRequest> = []
        for (const caller of boards) {
          const statusIds =
            q.status === undefined
              ? undefined
              : yield* Effect.forEach(csv(q.status) ?? [], (name) =>
                  Effect.map(optionByName(caller, "status", name, "query.status"), (o) => o.id)
                )
          const category = q.category === undefined ? undefined : yield* optionByName(caller, "category", q.category, "query.category")
          const page = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "requests", {
            viewerId: caller.userId,
            team: caller.team,
            includeMerged: q.includeMerged === "true",
            sort: "old",
            ...(statusIds !== undefined ? { statusIds } : {}),
            ...(category !== undefined ? { categoryId: category.id } : {}),
            ...(author !== undefined ? { authorId: author.id } : {}),
            ...(q.q !== undefined ? { q: q.q } : {}),
            offset: 0,
            limit: 1_000_000
          })
          items.push(...(yield* liteRequests(caller, page.items)))
        }
        return yield* cursorPage(items, q, q.cursor, q.limit ?? 20)
      })
  }),
  operation({
    service,
    tag,
    operationId: "setFeatureRequestStatusLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/status",
    summary: "Move a feature request to a status by name, with an optional note (board admins); subscribers are notified",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, status: NameRef, note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2_000))) }),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest } },
    examples: [
      {
        name: "plan",
        request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, status: "Planned" } },
        response: { status: 200, body: { ...exampleLite, status: "Planned", statusType: "planned" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        if (!caller.admin) return yield* reject("forbidden", "Only the board's admins change statuses")
        const status = yield* optionByName(caller, "status", body.status, "body.status")
        const updated = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "changeStatus", {
          by: caller.userId,
          requestId: record.id,
          statusId: status.id,
          note: body.note ?? ""
        })
        return yield* liteOne(caller, updated)
      })
  }),
  operation({
    service,
    tag,
    operationId: "voteFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/votes",
    summary: "Vote for a feature request, or (team) on behalf of a customer by e-mail",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, onBehalfOfEmail: Schema.optionalKey(LiteEmail) }),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest }, 409: { description: "Already voted" } },
    examples: [
      {
        name: "vote",
        request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId } },
        response: { status: 200, body: { ...exampleLite, voteCount: 1 } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller: seen, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const caller = yield* onBoard(context, seen.view.board.id, "vote")
        let voter: (typeof Board.messages.vote.payload.Type)["voter"] = { kind: "user", userId: caller.userId }
        if (body.onBehalfOfEmail !== undefined) {
          if (!caller.team) return yield* reject("forbidden", "Only the board's team may vote on behalf of a customer")
          const email = body.onBehalfOfEmail.trim().toLowerCase()
          const account = yield* userByEmail(email, "body.onBehalfOfEmail").pipe(Effect.option)
          voter = {
            kind: "customer",
            email,
            name: account._tag === "Some" ? account.value.name : null,
            userId: account._tag === "Some" ? account.value.id : null,
            castBy: caller.userId
          }
        }
        yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "vote", { by: caller.userId, requestId: record.id, voter })
        return yield* liteOne(caller, yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "request", { requestId: record.id }))
      })
  }),
  operation({
    service,
    tag,
    operationId: "commentOnFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/comments",
    summary: "Comment on a feature request; @e-mail mentions of workspace members notify them; the team may post internal notes",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      ...Where,
      body: Schema.String.check(Schema.isMaxLength(20_000), Schema.isPattern(/\S/, { expected: "a non-blank comment" })),
      internal: Schema.optionalKey(Schema.Boolean),
      mentionEmails: Schema.optionalKey(Schema.Array(LiteEmail).check(Schema.isMaxLength(50)))
    }),
    responses: {
      201: {
        description: "Posted",
        schema: Schema.Struct({
          id: Id,
          shortId: Schema.String,
          body: Schema.String,
          internal: Schema.Boolean,
          moderationState: Schema.String,
          createdAt: Schema.String
        })
      }
    },
    examples: [
      {
        name: "comment",
        request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, body: "Customers at Acme ask for this too." } },
        response: {
          status: 201,
          body: {
            id: ex.bugCommentId,
            shortId: "FR-12",
            body: "Customers at Acme ask for this too.",
            internal: false,
            moderationState: "approved",
            createdAt: ex.at
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const internal = body.internal ?? false
        if (internal && !caller.team)
          return yield* reject("forbidden", "Only the board's team may post internal notes", [
            { path: "body.internal", message: "team only" }
          ])
        const mentions: Array<string> = []
        for (const [index, email] of (body.mentionEmails ?? []).entries()) {
          const user = yield* userByEmail(email, `body.mentionEmails.${index}`)
          const role = yield* (yield* ActorSystem)
            .ask(Workspace, caller.view.board.workspaceId, "roleOf", { userId: user.id })
            .pipe(Effect.option)
          if (role._tag === "None")
            return yield* reject("invalid", `${email} is not a member of this workspace`, [
              { path: `body.mentionEmails.${index}`, message: "not a member" }
            ])
          mentions.push(user.id)
        }
        const comment = yield* (yield* ActorSystem).ask(Board, caller.view.board.id, "addComment", {
          by: caller.userId,
          commentId: randomUUID(),
          requestId: record.id,
          parentId: null,
          authorName: null,
          body: body.body,
          internal,
          mentions,
          moderationState: internal ? "approved" : yield* heldFor(caller)
        })
        return {
          id: comment.id,
          shortId: shortIdOf(record.number),
          body: comment.body,
          internal: comment.internal,
          moderationState: comment.moderationState,
          createdAt: comment.createdAt
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "mergeFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/merge",
    summary: "Merge a duplicate into the original, both by short id (board admins); voters and subscribers move over",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, into: RequestRef, intoBoard: Schema.optionalKey(NameRef) }),
    responses: { 200: { description: "The duplicate, pointing at the original", schema: LiteFeatureRequest } },
    examples: [
      {
        name: "merge",
        request: { params: { requestRef: "FR-13" }, body: { workspaceId: ex.workspaceId, into: "FR-12" } },
        response: { status: 200, body: { ...exampleLite, shortId: "FR-13", mergedInto: "FR-12" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const source = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const target = yield* requestByRef(
          context,
          { workspaceId: body.workspaceId, ...((body.intoBoard ?? body.board) ? { board: (body.intoBoard ?? body.board)! } : {}) },
          body.into,
          "body.into",
          "body.intoBoard"
        )
        if (!source.caller.admin || !target.caller.admin)
          return yield* reject("forbidden", "Merging needs admin rights on the boards of both requests")
        if (source.record.id === target.record.id)
          return yield* reject("invalid", "A request cannot be merged into itself", [{ path: "body.into", message: "same request" }])
        yield* (yield* ActorSystem).ask(Board, source.caller.view.board.id, "merge", {
          by: source.caller.userId,
          requestId: source.record.id,
          intoId: target.record.id,
          targetBoardId: target.caller.view.board.id
        })
        const merged = yield* (yield* ActorSystem).ask(Board, source.caller.view.board.id, "request", { requestId: source.record.id })
        const [lite] = yield* liteRequests(source.caller, [merged])
        return { ...lite!, mergedInto: shortIdOf(target.record.number) }
      })
  })
]
