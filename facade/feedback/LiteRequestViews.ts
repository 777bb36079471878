import { Effect, Schema } from "effect"
import { Board } from "../../actors/feedback/Board.ts"
import { visibleTo } from "../../actors/feedback/BoardReads.ts"
import { parseReference, requestReference } from "../../actors/feedback/BoardKeys.ts"
import { type RequestRecord, shortIdOf, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { RequestContext } from "../Operation.ts"
import type { BoardCaller } from "./DeskAccess.ts"
import { ex } from "./deskExamples.ts"
import { boardsFor, exactlyOne, Id, optionByName } from "./LiteRefs.ts"
import { board } from "./BoardAsk.ts"

export const RequestRef = Schema.String.check(
  Schema.isPattern(/^(FR-\d{1,9}|[a-z][a-z0-9]{1,9}-\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    expected: "a short id like FR-12, a reference like MOBILE-12, or an id"
  })
)
export const RefParams = Schema.Struct({ requestRef: RequestRef })
export const Markdown = Schema.String.check(Schema.isMaxLength(50_000))
export const Title = Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank title" }))

export const LiteFeatureRequest = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  reference: Schema.String.annotate({ description: "<board key>-<n> (e.g. MOBILE-12): names this request in the whole workspace" }),
  boardSlug: Schema.String.annotate({ description: "Board slug" }),
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
export type LiteFeatureRequest = typeof LiteFeatureRequest.Type

export const exampleLite = {
  id: ex.featureRequestId,
  shortId: "FR-12",
  reference: "PRODUCTIDE-12",
  boardSlug: ex.slug,
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
    const users = yield* orDieStore(usersByIds(records.flatMap((r) => (r.authorId === null ? [] : [r.authorId]))))
    const options = new Map(caller.view.options.map((o) => [o.id, o]))
    const merged = records.flatMap((r) => (r.mergedInto === null ? [] : [r.mergedInto]))
    const numbers = new Map<string, number>()
    if (merged.length > 0) {
      for (const target of merged) {
        const found = yield* board(caller.view.board.id).request({ requestId: target }).pipe(Effect.option)
        if (found._tag === "Some") numbers.set(target, found.value.number)
      }
    }
    return records.map((r): LiteFeatureRequest => {
      const status = r.statusId === null ? undefined : options.get(r.statusId)
      const author = r.authorId === null ? undefined : users.get(r.authorId)
      return {
        id: r.id,
        shortId: shortIdOf(r.number),
        reference: requestReference(caller.view.board.key, r.number),
        boardSlug: caller.view.board.slug,
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

export const liteOne = (caller: BoardCaller, record: RequestRecord) => Effect.map(liteRequests(caller, [record]), (items) => items[0]!)

export const allRequests = (caller: BoardCaller) =>
  Effect.map(
    Effect.flatMap(ActorSystem, (system) =>
      Board.client(system)(caller.view.board.id).requests({
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

/**
 * A request by reference (MOBILE-12: one board, by its key), short id (FR-12)
 * or id, on the named board or any board the caller sees; 404 / 409 naming
 * the field.
 */
export const requestByRef = (
  context: RequestContext,
  where: { workspaceId: string; board?: string },
  ref: string,
  path: string,
  boardPath: string
) =>
  Effect.gen(function* () {
    const all = yield* boardsFor(context, where.workspaceId, where.board, boardPath)
    const reference = parseReference(ref, "request")
    const boards = reference === undefined ? all : all.filter((b) => b.view.board.key === reference.key)
    const byId = reference === undefined && !/^FR-/i.test(ref)
    const number = byId ? undefined : (reference?.number ?? Number(ref.slice(3)))
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

export const optionId = (
  caller: BoardCaller,
  kind: "category" | "product_area" | "status",
  name: string | null | undefined,
  path: string
) =>
  name === undefined
    ? Effect.succeed(undefined)
    : name === null
      ? Effect.succeed(null)
      : Effect.map(optionByName(caller, kind, name, path), (o) => o.id)
