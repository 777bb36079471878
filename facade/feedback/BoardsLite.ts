/**
 * feedback tag "Boards (Lite)" (1): board discovery for AI agents, by slug.
 * Without `slug` every board of the workspace the caller may see; with it
 * that one board, or 404 naming the slug.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Board as BoardActor } from "../../actors/feedback/Board.ts"
import { boardIdsOfWorkspace } from "../../actors/feedback/BoardRows.ts"
import { BoardVisibility } from "../../actors/feedback/FeedbackModel.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { Slug } from "./Boards.ts"
import { callerOn } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { boardsLiteExamples } from "./BoardsLite.examples.ts"

const LiteBoard = Schema.Struct({
  slug: Schema.String,
  name: Schema.String,
  description: Schema.String,
  visibility: BoardVisibility,
  archived: Schema.Boolean,
  requestCount: Schema.Number,
  statuses: Schema.Array(Schema.String).annotate({ description: "Status names, in workflow order (filters of Feature Requests (Lite))" }),
  categories: Schema.Array(Schema.String),
  id: Id
}).annotate({ identifier: "FeedbackLiteBoard" })

const { operation } = tagGroup(service, "Boards (Lite)", boardsLiteExamples)

export const boardsLiteOperations = [
  operation({
    operationId: "findBoardsLite",
    method: "GET",
    path: "/v1/lite/boards",
    summary: "Discover the workspace's boards by slug, with their status and category names",
    auth: "both",
    scopes: ["feedback:read"],
    query: Schema.Struct({ workspaceId: Id, slug: Schema.optionalKey(Slug) }),
    responses: {
      200: {
        description: "Boards",
        schema: Schema.Struct({ items: Schema.Array(LiteBoard) }).annotate({ identifier: "FeedbackLiteBoardList" })
      },
      404: { description: "No board with that slug" }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, query.workspaceId)
        const system = yield* ActorSystem
        const ids = yield* Effect.orDie(boardIdsOfWorkspace(query.workspaceId))
        const found = yield* Effect.forEach(
          ids,
          (id) =>
            BoardActor.client(system)(id)
              .view({})
              .pipe(
                Effect.flatMap((view) => callerOn(context, view)),
                Effect.flatMap((caller) =>
                  query.slug !== undefined && caller.view.board.slug !== query.slug
                    ? Effect.succeed(undefined)
                    : Effect.map(
                        BoardActor.client(system)(id).requests({
                          viewerId: caller.userId,
                          team: caller.team,
                          includeMerged: false,
                          sort: "new",
                          offset: 0,
                          limit: 0
                        }),
                        (requests) => {
                          const { board, options } = caller.view
                          const named = (kind: string) => options.filter((o) => o.kind === kind).map((o) => o.name)
                          return {
                            slug: board.slug,
                            name: board.name,
                            description: board.description,
                            visibility: board.visibility,
                            archived: board.archived,
                            requestCount: requests.total,
                            statuses: named("status"),
                            categories: named("category"),
                            id: board.id
                          }
                        }
                      )
                ),
                Effect.catchTag(["Rejection", "BoardNotFound"], () => Effect.succeed(undefined))
              ),
          { concurrency: 8 }
        )
        const items = found.filter((b) => b !== undefined)
        if (query.slug !== undefined && items.length === 0) {
          return yield* reject("not_found", `No board with the slug "${query.slug}" in this workspace`, [
            { path: "query.slug", message: "not found" }
          ])
        }
        return { items }
      })
  })
]
