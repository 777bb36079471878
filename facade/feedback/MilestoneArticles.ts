/**
 * feedback tag "Milestone Articles" (4): long-form changelog content of a
 * milestone on the wiki's rich-text schema (the same `collab/` nodes and
 * marks): given as Markdown, HTML or ProseMirror JSON, answered as all
 * three. JSON off the schema is refused with 400 naming the node.
 */
import { Effect, Schema } from "effect"
import { RenderedArticle, richTextFrom, RichTextInput, rendered } from "../../actors/feedback/ArticleContent.ts"
import { articleOf, MilestoneArticle } from "../../actors/feedback/ReleaseCommands.ts"
import { Id } from "../../actors/Fields.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"

import { milestoneFor } from "./Milestones.ts"
import { milestoneArticlesExamples } from "./MilestoneArticles.examples.ts"
import { desk } from "./BoardAsk.ts"
const MilestoneParams = Schema.Struct({ milestoneId: Id })
const ArticleBody = Schema.Struct(RichTextInput)

const { operation } = tagGroup("feedback", "Milestone Articles", milestoneArticlesExamples)

export const milestoneArticleOperations = [
  operation({
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
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { milestone } = yield* milestoneFor(context, params.milestoneId, "see")
        if (!milestone.hasArticle) return yield* reject("not_found", "This milestone has no article yet")
        return yield* orDieStore(articleOf(milestone.id))
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        const content = yield* richTextFrom(body)
        return yield* desk(caller.view.board.id).putArticle({ by: caller.userId, input: { milestoneId: params.milestoneId, content } })
      })
  }),
  operation({
    operationId: "deleteMilestoneArticle",
    method: "DELETE",
    path: "/v1/milestones/{milestoneId}/article",
    summary: "Remove a milestone's article (team)",
    auth: "both",
    scopes: ["feedback:write"],
    params: MilestoneParams,
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        yield* desk(caller.view.board.id).deleteArticle({ by: caller.userId, input: { milestoneId: params.milestoneId } })
      })
  }),
  operation({
    operationId: "previewMilestoneArticle",
    method: "POST",
    path: "/v1/milestones/{milestoneId}/article/preview",
    summary: "Convert article content without saving it: markdown, html or content in, all three out",
    auth: "both",
    scopes: ["feedback:read"],
    params: MilestoneParams,
    body: ArticleBody,
    responses: { 200: { description: "The converted article", schema: RenderedArticle.annotate({ identifier: "RenderedArticle" }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* milestoneFor(context, params.milestoneId, "see")
        return rendered(yield* richTextFrom(body))
      })
  })
]
