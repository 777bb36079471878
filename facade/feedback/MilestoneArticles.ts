/**
 * feedback tag "Milestone Articles" (4): long-form changelog content of a
 * milestone on the wiki's rich-text schema (the same `collab/` nodes and
 * marks): given as Markdown, HTML or ProseMirror JSON, answered as all
 * three. JSON off the schema is refused with 400 naming the node.
 */
import { Effect, Schema } from "effect"
import { RenderedArticle, richTextFrom, RichTextInput, rendered } from "../../actors/feedback/ArticleContent.ts"
import { deskSend } from "../../actors/feedback/FeedbackDesk.ts"
import { articleOf, MilestoneArticle } from "../../actors/feedback/ReleaseCommands.ts"
import { Id } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation } from "../Operation.ts"
import { orDieSql } from "./DeskAccess.ts"
import { ex, exampleArticle, exampleDoc } from "./deskExamples.ts"
import { milestoneFor } from "./Milestones.ts"

const service = "feedback"
const tag = "Milestone Articles"
const MilestoneParams = Schema.Struct({ milestoneId: Id })
const params = { milestoneId: ex.milestoneId }
const ArticleBody = Schema.Struct(RichTextInput)

export const milestoneArticleOperations = [
  operation({
    service,
    tag,
    operationId: "getMilestoneArticle",
    method: "GET",
    path: "/v1/milestones/{milestoneId}/article",
    summary: "A milestone's article as ProseMirror JSON, Markdown and HTML",
    auth: "both",
    scopes: ["feedback:read"],
    params: MilestoneParams,
    responses: {
      200: { description: "The article", schema: MilestoneArticle },
      404: { description: "No such milestone, or it has no article" }
    },
    examples: [{ name: "get", request: { params }, response: { status: 200, body: exampleArticle } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { milestone } = yield* milestoneFor(context, params.milestoneId, "see")
        if (!milestone.hasArticle) return yield* reject("not_found", "This milestone has no article yet")
        return yield* orDieSql(articleOf(milestone.id))
      })
  }),
  operation({
    service,
    tag,
    operationId: "putMilestoneArticle",
    method: "PUT",
    path: "/v1/milestones/{milestoneId}/article",
    summary: "Write a milestone's article (team): give markdown, html or content (ProseMirror JSON)",
    description:
      "Replaces the article. Exactly one of `markdown`, `html` or `content`; the reply holds all three forms. Nodes and marks are the wiki's; anything else is refused with 400 naming the node.",
    auth: "both",
    scopes: ["feedback:write"],
    params: MilestoneParams,
    body: ArticleBody,
    responses: { 200: { description: "The article", schema: MilestoneArticle } },
    examples: [
      { name: "markdown", request: { params, body: { markdown: "Dark mode is here." } }, response: { status: 200, body: exampleArticle } },
      { name: "prosemirror", request: { params, body: { content: exampleDoc } }, response: { status: 200, body: exampleArticle } }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        const content = yield* richTextFrom(body)
        return yield* deskSend(caller.view.board.id, "putArticle", caller.userId, { milestoneId: params.milestoneId, content })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteMilestoneArticle",
    method: "DELETE",
    path: "/v1/milestones/{milestoneId}/article",
    summary: "Remove a milestone's article (team)",
    auth: "both",
    scopes: ["feedback:write"],
    params: MilestoneParams,
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "delete", request: { params }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        yield* deskSend(caller.view.board.id, "deleteArticle", caller.userId, { milestoneId: params.milestoneId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "previewMilestoneArticle",
    method: "POST",
    path: "/v1/milestones/{milestoneId}/article/preview",
    summary: "Convert article content without saving it: markdown, html or content in, all three out",
    auth: "both",
    scopes: ["feedback:read"],
    params: MilestoneParams,
    body: ArticleBody,
    responses: { 200: { description: "The converted article", schema: RenderedArticle.annotate({ identifier: "RenderedArticle" }) } },
    examples: [
      {
        name: "preview",
        request: { params, body: { markdown: "Dark mode is here." } },
        response: { status: 200, body: { content: exampleDoc, markdown: "Dark mode is here.", html: "<p>Dark mode is here.</p>" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* milestoneFor(context, params.milestoneId, "see")
        return rendered(yield* richTextFrom(body))
      })
  })
]
