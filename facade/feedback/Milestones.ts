/**
 * feedback tag "Milestone Resource" (8): a board's milestones — a name, a
 * target or release date, and the feature requests they deliver. Everyone
 * who sees the board sees them (they are the dated roadmap); the team
 * plans them. Read from the board's FeedbackDesk memory.
 */
import { Effect, Schema } from "effect"
import { Milestone } from "../../actors/feedback/DeskRecords.ts"
import { shortIdOf } from "../../actors/feedback/FeedbackModel.ts"
import { visibleTo } from "../../actors/feedback/BoardReads.ts"
import { Id, Name, Timestamp } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { type BoardCaller, onBoard, onMilestone } from "./DeskAccess.ts"

import { milestonesExamples } from "./Milestones.examples.ts"
import { board, desk } from "./BoardAsk.ts"
const read = ["feedback:read"]
const write = ["feedback:write"]

export const IsoDate = Schema.String.check(
  Schema.isPattern(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { expected: "a date YYYY-MM-DD" }),
  Schema.makeFilter((s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    expected: "a real date"
  })
)
const Description = Schema.String.check(Schema.isMaxLength(5_000))

const MilestoneParams = Schema.Struct({ milestoneId: Id })

export const MilestoneRequest = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  title: Schema.String,
  statusId: Schema.NullOr(Id),
  voteCount: Schema.Number,
  createdAt: Timestamp
}).annotate({ identifier: "MilestoneFeatureRequest" })

/** The milestone (from the desk's memory) and the caller's standing on its board. */
export const milestoneFor = (context: RequestContext, milestoneId: string, need: "see" | "team") =>
  Effect.gen(function* () {
    const caller = yield* onMilestone(context, milestoneId, need)
    const milestone = (yield* desk(caller.view.board.id).milestones({})).find((m) => m.id === milestoneId)
    if (milestone === undefined) return yield* reject("not_found", "No such milestone")
    return { caller, milestone }
  })

/** The milestone's requests the viewer may see, as summaries (from the Board actor's memory). */
export const requestsOf = (boardId: string, ids: ReadonlyArray<string>, viewerId: string | null, team: boolean) =>
  Effect.gen(function* () {
    if (ids.length === 0) return []
    const { items } = yield* board(boardId).requests({
      viewerId,
      team,
      ids,
      includeMerged: true,
      sort: "new",
      offset: 0,
      limit: ids.length
    })
    return items
      .filter((r) => visibleTo(r, viewerId, team))
      .map((r) => ({
        id: r.id,
        shortId: shortIdOf(r.number),
        title: r.title,
        statusId: r.statusId,
        voteCount: r.voteCount,
        createdAt: r.createdAt
      }))
  })

/** A feature request of the board the caller may see, else 400 naming the field. */
export const requestOnBoard = (caller: BoardCaller, requestId: string, path: string) =>
  Effect.gen(function* () {
    const found = yield* requestsOf(caller.view.board.id, [requestId], caller.userId, caller.team)
    if (found.length === 0) {
      return yield* reject("invalid", `Invalid ${path}: no such feature request on this board`, [
        { path, message: "no such feature request on this board" }
      ])
    }
    return found[0]!
  })

const { operation } = tagGroup("feedback", "Milestone Resource", milestonesExamples)

export const milestoneOperations = [
  operation({
    operationId: "createMilestone",
    method: "POST",
    path: "/v1/boards/{boardId}/milestones",
    summary: "Plan a milestone on a board (team): a name and an optional target date",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ boardId: Id }),
    body: Schema.Struct({ name: Name(200), date: Schema.optionalKey(IsoDate), description: Schema.optionalKey(Description) }),
    responses: { 201: { description: "The milestone", schema: Milestone } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "team")
        return yield* desk(params.boardId).createMilestone({
          by: caller.userId,
          input: { ...body, workspaceId: caller.view.board.workspaceId }
        })
      })
  }),
  operation({
    operationId: "listMilestones",
    method: "GET",
    path: "/v1/boards/{boardId}/milestones",
    summary: "The board's milestones by date (undated last)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ boardId: Id }),
    query: Schema.Struct({
      released: Schema.optionalKey(
        Schema.Literals(["true", "false"]).annotate({ description: "Only released (true) or upcoming (false) ones" })
      )
    }),
    responses: { 200: { description: "Milestones", schema: Schema.Struct({ items: Schema.Array(Milestone) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onBoard(context, params.boardId, "see")
        const all = yield* desk(params.boardId).milestones({})
        return { items: query.released === undefined ? all : all.filter((m) => (m.releasedAt !== null) === (query.released === "true")) }
      })
  }),
  operation({
    operationId: "getMilestone",
    method: "GET",
    path: "/v1/milestones/{milestoneId}",
    summary: "A milestone",
    auth: "both",
    scopes: read,
    params: MilestoneParams,
    responses: { 200: { description: "The milestone", schema: Milestone } },
    handler: ({ params }, context) => Effect.map(milestoneFor(context, params.milestoneId, "see"), ({ milestone }) => milestone)
  }),
  operation({
    operationId: "updateMilestone",
    method: "PATCH",
    path: "/v1/milestones/{milestoneId}",
    summary: "Rename, re-date or describe a milestone, or mark it released (team)",
    description: "Fields left out are unchanged; `date: null` clears the date; `released: true` stamps the release time (once).",
    auth: "both",
    scopes: write,
    params: MilestoneParams,
    body: Schema.Struct({
      name: Schema.optionalKey(Name(200)),
      date: Schema.optionalKey(Schema.NullOr(IsoDate)),
      description: Schema.optionalKey(Description),
      released: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "The milestone", schema: Milestone } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        return yield* desk(caller.view.board.id).updateMilestone({ by: caller.userId, input: { milestoneId: params.milestoneId, ...body } })
      })
  }),
  operation({
    operationId: "deleteMilestone",
    method: "DELETE",
    path: "/v1/milestones/{milestoneId}",
    summary: "Delete a milestone and its article (team); its requests stay",
    auth: "both",
    scopes: write,
    params: MilestoneParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        yield* desk(caller.view.board.id).deleteMilestone({ by: caller.userId, input: { milestoneId: params.milestoneId } })
      })
  }),
  operation({
    operationId: "addMilestoneFeatureRequest",
    method: "POST",
    path: "/v1/milestones/{milestoneId}/feature-requests",
    summary: "Plan a feature request of the board into a milestone (team)",
    auth: "both",
    scopes: write,
    params: MilestoneParams,
    body: Schema.Struct({ featureRequestId: Id }),
    responses: { 201: { description: "The milestone", schema: Milestone } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        yield* requestOnBoard(caller, body.featureRequestId, "body.featureRequestId")
        return yield* desk(caller.view.board.id).linkRequest({
          by: caller.userId,
          input: {
            milestoneId: params.milestoneId,
            featureRequestId: body.featureRequestId
          }
        })
      })
  }),
  operation({
    operationId: "removeMilestoneFeatureRequest",
    method: "DELETE",
    path: "/v1/milestones/{milestoneId}/feature-requests/{featureRequestId}",
    summary: "Take a feature request out of a milestone (team)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ milestoneId: Id, featureRequestId: Id }),
    responses: { 200: { description: "The milestone", schema: Milestone } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        return yield* desk(caller.view.board.id).unlinkRequest({ by: caller.userId, input: params })
      })
  }),
  operation({
    operationId: "listMilestoneFeatureRequests",
    method: "GET",
    path: "/v1/milestones/{milestoneId}/feature-requests",
    summary: "The feature requests a milestone delivers, with their votes and status",
    auth: "both",
    scopes: read,
    params: MilestoneParams,
    responses: { 200: { description: "Requests", schema: Schema.Struct({ items: Schema.Array(MilestoneRequest) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, milestone } = yield* milestoneFor(context, params.milestoneId, "see")
        return { items: yield* requestsOf(caller.view.board.id, milestone.featureRequestIds, caller.userId, caller.team) }
      })
  })
]
