/**
 * feedback tag "Feature Requests (Lite)" (8): feature requests for AI
 * agents — referenced by short id (FR-12), boards by slug or name, statuses
 * and categories by name, people by e-mail; searched with name filters and
 * a cursor. Same rules and the same Board actor as the full operations.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { descriptionFrom } from "../../actors/feedback/Description.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { heldFor, onBoard } from "./DeskAccess.ts"

import {
  boardByRef,
  boardsFor,
  Id,
  LiteEmail,
  liteSearch,
  NameRef,
  Paging,
  optionByName,
  optionIdsByName,
  searchPage,
  userByEmail,
  Where
} from "./LiteRefs.ts"

import { LiteFeatureRequest, Markdown, RefParams, Title, liteOne, liteRequests, optionId, requestByRef } from "./LiteRequestViews.ts"
import { featureRequestsLiteExamples } from "./FeatureRequestsLite.examples.ts"
import { board } from "./BoardAsk.ts"
const read = ["feedback:read"]
const write = ["feedback:write"]

const SearchQuery = Schema.Struct({
  ...Where,
  status: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Status names, comma-separated (any of them)" })
  ),
  category: Schema.optionalKey(NameRef),
  authorEmail: Schema.optionalKey(LiteEmail),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Words in the title or description" })),
  includeMerged: Schema.optionalKey(Schema.Literals(["true", "false"])),
  ...Paging
})

const { operation } = tagGroup("feedback", "Feature Requests (Lite)", featureRequestsLiteExamples)

export const featureRequestsLiteOperations = [
  operation({
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
        const record = yield* board(caller.view.board.id).createRequest({
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
    operationId: "getFeatureRequestLite",
    method: "GET",
    path: "/v1/lite/feature-requests/{requestRef}",
    summary: "A feature request by reference (MOBILE-12), short id (FR-12) or id, with names instead of ids",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(requestByRef(context, query, params.requestRef, "path.requestRef", "query.board"), ({ caller, record }) =>
        liteOne(caller, record)
      )
  }),
  operation({
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
        const updated = yield* board(caller.view.board.id).updateRequest({
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
    operationId: "searchFeatureRequestsLite",
    path: "/v1/lite/feature-requests",
    summary: "Search feature requests by board, status and category names, author e-mail and text; paged by cursor",
    mcp: { tool: "searchFeatureRequests" },
    query: SearchQuery,
    ...liteSearch(LiteFeatureRequest),
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const boards = yield* boardsFor(context, q.workspaceId, q.board, "query.board")
        const author = q.authorEmail === undefined ? undefined : yield* userByEmail(q.authorEmail, "query.authorEmail")
        return yield* searchPage(boards, q, (caller) =>
          Effect.gen(function* () {
            const statusIds = yield* optionIdsByName(caller, "status", q.status, "query.status")
            const category = q.category === undefined ? undefined : yield* optionByName(caller, "category", q.category, "query.category")
            const page = yield* board(caller.view.board.id).requests({
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
            return yield* liteRequests(caller, page.items)
          })
        )
      })
  })
]
