/**
 * feedback tag "Feature Request Resource" (4): post a feature request on a
 * board (numbered FR-n per board; waiting for moderation when the board
 * moderates and the author is not on the team), read one, edit it (its
 * author or a board admin), delete it (likewise).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { descriptionFrom, emptyDescription } from "../../actors/feedback/Description.ts"
import { ProseMirrorNode } from "../../actors/wiki/WikiViews.ts"
import { dropFiles } from "../../actors/feedback/AttachmentFiles.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { board, BoardParams, FeatureRequestParams } from "./BoardAsk.ts"
import { boardAccess, requestAccess } from "./FeedbackAccess.ts"
import { FeatureRequest, featureRequestOf, service } from "./FeedbackViews.ts"
import { heldFor } from "./DeskAccess.ts"
import { featureRequestsExamples } from "./FeatureRequests.examples.ts"

export const Title = Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank title" })).annotate({
  description: "At most 200 characters"
})
export const MarkdownText = Schema.String.check(Schema.isMaxLength(50_000)).annotate({ description: "Markdown, at most 50 000 characters" })

const DescriptionFields = {
  description: Schema.optionalKey(MarkdownText),
  content: Schema.optionalKey(ProseMirrorNode),
  categoryId: Schema.optionalKey(Schema.NullOr(Id)),
  productAreaId: Schema.optionalKey(Schema.NullOr(Id))
}

const descriptionFields = { markdown: "body.description", content: "body.content" }

const { operation } = tagGroup(service, "Feature Request Resource", featureRequestsExamples)

export const featureRequestOperations = [
  operation({
    operationId: "createFeatureRequest",
    method: "POST",
    path: "/v1/boards/{boardId}/feature-requests",
    summary: "Post a feature request on a board",
    description:
      "`description` is Markdown (or give `content`, ProseMirror JSON on the wiki's rich-text schema). Numbered `FR-<n>` per board. On a moderated board a post by someone outside the team waits for approval (`moderationState: pending`).",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({ title: Title, ...DescriptionFields }),
    responses: {
      201: { description: "Posted", schema: FeatureRequest },
      403: { description: "The board's settings do not let the caller post" },
      404: { description: "No such board" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "post")
        const description =
          (yield* descriptionFrom({ markdown: body.description, content: body.content }, descriptionFields)) ?? emptyDescription()
        const record = yield* board(params.boardId).createRequest({
          by: caller.userId,
          requestId: randomUUID(),
          title: body.title,
          ...description,
          ...(body.categoryId !== undefined ? { categoryId: body.categoryId } : {}),
          ...(body.productAreaId !== undefined ? { productAreaId: body.productAreaId } : {}),
          authorId: caller.userId,
          authorName: null,
          moderationState: yield* heldFor(caller)
        })
        return yield* featureRequestOf(caller.view, record)
      })
  }),
  operation({
    operationId: "getFeatureRequest",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}",
    summary: "A feature request with its status, votes and where it was merged",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: { 200: { description: "The request", schema: FeatureRequest }, 404: { description: "No such request" } },
    handler: ({ params }, context) =>
      Effect.flatMap(requestAccess(context, params.featureRequestId), ({ caller, request }) => featureRequestOf(caller.view, request))
  }),
  operation({
    operationId: "updateFeatureRequest",
    method: "PATCH",
    path: "/v1/feature-requests/{featureRequestId}",
    summary: "Edit a feature request's title, description, category or product area (its author or a board admin)",
    description: "Fields left out are unchanged; null clears the category or product area.",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ title: Schema.optionalKey(Title), ...DescriptionFields }),
    responses: { 200: { description: "Edited", schema: FeatureRequest }, 403: { description: "Not the author or an admin" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, request, boardId } = yield* requestAccess(context, params.featureRequestId)
        if (!caller.admin && request.authorId !== caller.userId)
          return yield* reject("forbidden", "Only the author or a board admin may edit this request")
        const description = yield* descriptionFrom({ markdown: body.description, content: body.content }, descriptionFields)
        const record = yield* board(boardId).updateRequest({
          by: caller.userId,
          requestId: request.id,
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(description ?? {}),
          ...(body.categoryId !== undefined ? { categoryId: body.categoryId } : {}),
          ...(body.productAreaId !== undefined ? { productAreaId: body.productAreaId } : {})
        })
        return yield* featureRequestOf(caller.view, record)
      })
  }),
  operation({
    operationId: "deleteFeatureRequest",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}",
    summary: "Delete a feature request with its votes, comments and attachments (its author or a board admin)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    responses: { 204: { description: "Deleted" }, 409: { description: "Other requests are merged into it" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, request, boardId } = yield* requestAccess(context, params.featureRequestId)
        if (!caller.admin && request.authorId !== caller.userId)
          return yield* reject("forbidden", "Only the author or a board admin may delete this request")
        const removed = yield* board(boardId).deleteRequest({ by: caller.userId, requestId: request.id })
        yield* dropFiles(removed.blobKeys)
      })
  })
]
