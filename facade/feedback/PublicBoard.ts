/**
 * feedback tag "Public Board Resource", part 1 (9 of 33): a public board as
 * an anonymous visitor sees it — the board, its workflow names, roadmap,
 * counts, the public boards of a workspace, recent activity and a sitemap.
 * No authentication; private and members-only boards answer 404.
 */
import { Effect, Schema } from "effect"
import { Board } from "../../actors/feedback/Board.ts"
import { shortIdOf, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { publicBoardsOf, recentStatusChanges } from "../../actors/feedback/PublicReads.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { tagGroup } from "../Operation.ts"
import { exampleStatus, publicBoardExamples, slugParams } from "./PublicBoard.examples.ts"
import { ex } from "./deskExamples.ts"
import {
  approvedRequests,
  PublicBoard,
  PublicFeatureRequest,
  PublicOption,
  PublicStatus,
  publicBoard,
  publicBoardOf,
  publicOptions,
  publicStatuses,
  publicRequests,
  SlugParams,
  WorkspaceQuery
} from "./PublicViews.ts"
import { board, desk } from "./BoardAsk.ts"

export const service = "feedback"
export const tag = "Public Board Resource"

/** The tag spans four files; every operation of it is public: no credentials, no scopes. */
export const { operation: publicOperation } = tagGroup(service, tag, publicBoardExamples)

const Options = (schema: Schema.Top) => Schema.Struct({ items: Schema.Array(schema) })
const optionList = (kind: "status" | "category" | "product_area", schema: Schema.Top, operationId: string, segment: string, what: string) =>
  publicOperation({
    operationId,
    method: "GET",
    path: `/v1/public/boards/{slug}/${segment}`,
    summary: `The public board's ${what}, in order (no authentication)`,
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: what, schema: Options(schema) }, 404: { description: "No such public board" } },
    examples: [
      {
        name: "list",
        request: { params: slugParams },
        response: {
          status: 200,
          body: {
            items: kind === "status" ? [exampleStatus] : [{ id: ex.categoryId, name: "Integrations", description: "", color: "#6b7280" }]
          }
        }
      }
    ],
    handler: ({ params, query: q }) => Effect.map(publicBoard(params.slug, q.workspaceId), (view) => ({ items: publicOptions(view, kind) }))
  })

const RoadmapColumn = Schema.Struct({
  type: StatusType,
  statuses: Schema.Array(PublicStatus),
  requests: Schema.Array(PublicFeatureRequest)
})

const PublicStats = Schema.Struct({
  requests: Schema.Number,
  votes: Schema.Number,
  comments: Schema.Number,
  shipped: Schema.Number,
  byStatusType: Schema.Array(Schema.Struct({ type: StatusType, count: Schema.Number }))
}).annotate({ identifier: "PublicFeedbackBoardStats" })

const Activity = Schema.Struct({
  kind: Schema.Literals(["statusChanged", "changelogPublished"]),
  shortId: Schema.NullOr(Schema.String),
  title: Schema.String,
  detail: Schema.String,
  at: Timestamp
}).annotate({ identifier: "PublicFeedbackActivity" })

export const publicBoardOperations = [
  publicOperation({
    operationId: "getPublicBoard",
    method: "GET",
    path: "/v1/public/boards/{slug}",
    summary: "A public board by slug: name, description, its statuses, categories and product areas (no authentication)",
    description:
      "Only public boards; private and members-only boards answer 404. When several workspaces have a public board with the slug, 409 lists them: add `workspaceId`.",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: {
      200: { description: "The board", schema: PublicBoard },
      404: { description: "No such public board" },
      409: { description: "Ambiguous slug" }
    },
    handler: ({ params, query: q }) => Effect.map(publicBoard(params.slug, q.workspaceId), publicBoardOf)
  }),
  publicOperation({
    operationId: "listPublicBoards",
    method: "GET",
    path: "/v1/public/workspaces/{workspaceId}/boards",
    summary: "The public boards of a workspace (no authentication)",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    responses: {
      200: {
        description: "Boards",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ id: Id, slug: Schema.String, name: Schema.String, description: Schema.String }))
        })
      }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const rows = yield* orDieStore(publicBoardsOf(params.workspaceId))
        const system = yield* ActorSystem
        const views = yield* Effect.forEach(rows, (row) => Board.client(system)(row.id).view({}).pipe(Effect.option), { concurrency: 8 })
        return {
          items: views.flatMap((v) =>
            v._tag === "Some" && v.value.board.visibility === "public" && !v.value.board.archived
              ? [{ id: v.value.board.id, slug: v.value.board.slug, name: v.value.board.name, description: v.value.board.description }]
              : []
          )
        }
      })
  }),
  publicOperation({
    operationId: "getPublicRoadmap",
    method: "GET",
    path: "/v1/public/boards/{slug}/roadmap",
    summary: "The public board's roadmap: its requests grouped by status type, most voted first (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Columns", schema: Schema.Struct({ columns: Schema.Array(RoadmapColumn) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const columns = yield* board(view.board.id).roadmap({ viewerId: null, team: false })
        const statuses = publicStatuses(view)
        return {
          columns: yield* Effect.forEach(columns, (column) =>
            Effect.map(publicRequests(view, column.requests), (requests) => ({
              type: column.type,
              statuses: statuses.filter((s) => s.type === column.type),
              requests
            }))
          )
        }
      })
  }),
  optionList("status", PublicStatus, "listPublicStatuses", "statuses", "statuses"),
  optionList("category", PublicOption, "listPublicCategories", "categories", "categories"),
  optionList("product_area", PublicOption, "listPublicProductAreas", "product-areas", "product areas"),
  publicOperation({
    operationId: "getPublicBoardStats",
    method: "GET",
    path: "/v1/public/boards/{slug}/stats",
    summary: "Counts of the public board: requests, votes, comments, shipped, by status type (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Counts", schema: PublicStats } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const live = (yield* approvedRequests(view.board.id)).filter((r) => r.mergedInto === null)
        const typeOf = new Map(view.options.filter((o) => o.kind === "status").map((o) => [o.id, o.type ?? "open"]))
        const types = StatusType.literals
        const count = (type: string) => live.filter((r) => (typeOf.get(r.statusId ?? "") ?? "open") === type).length
        return {
          requests: live.length,
          votes: live.reduce((n, r) => n + r.voteCount, 0),
          comments: live.reduce((n, r) => n + r.commentCount, 0),
          shipped: count("shipped"),
          byStatusType: types.map((type) => ({ type, count: count(type) }))
        }
      })
  }),
  publicOperation({
    operationId: "listPublicBoardActivity",
    method: "GET",
    path: "/v1/public/boards/{slug}/activity",
    summary: "Recent public activity: status changes of requests and published changelog entries, newest first (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: Schema.Struct({
      ...WorkspaceQuery.fields,
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Activity", schema: Schema.Struct({ items: Schema.Array(Activity) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const limit = q.limit ?? 30
        const requests = new Map((yield* approvedRequests(view.board.id)).map((r) => [r.id, r]))
        const history = yield* orDieStore(recentStatusChanges(view.board.id, limit * 2))
        const changes = history.flatMap((h) => {
          const r = requests.get(h.requestId)
          return r === undefined
            ? []
            : [
                {
                  kind: "statusChanged" as const,
                  shortId: shortIdOf(r.number),
                  title: r.title,
                  detail: h.to ?? "",
                  at: h.at
                }
              ]
        })
        const published = (yield* desk(view.board.id).changelog({}))
          .filter((e) => e.state === "published" && e.publishedAt !== null)
          .map((e) => ({ kind: "changelogPublished" as const, shortId: null, title: e.title, detail: e.kind, at: e.publishedAt! }))
        return { items: [...changes, ...published].sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit) }
      })
  }),
  publicOperation({
    operationId: "getPublicBoardSitemap",
    method: "GET",
    path: "/v1/public/boards/{slug}/sitemap",
    summary:
      "Every public page of the board (requests, milestones, changelog entries) with its last change, for crawlers (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: {
      200: {
        description: "Pages",
        schema: Schema.Struct({ items: Schema.Array(Schema.Struct({ path: Schema.String, lastModified: Timestamp })) })
      }
    },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const base = `/feedback/v1/public/boards/${view.board.slug}`
        const requests = (yield* approvedRequests(view.board.id)).filter((r) => r.mergedInto === null)
        const milestones = yield* desk(view.board.id).milestones({})
        const entries = (yield* desk(view.board.id).changelog({})).filter((e) => e.state === "published")
        return {
          items: [
            ...requests.map((r) => ({ path: `${base}/feature-requests/${shortIdOf(r.number)}`, lastModified: r.updatedAt })),
            ...milestones.map((m) => ({ path: `${base}/milestones/${m.id}`, lastModified: m.updatedAt })),
            ...entries.map((e) => ({ path: `${base}/changelog/${e.id}`, lastModified: e.updatedAt }))
          ]
        }
      })
  })
]
