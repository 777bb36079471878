/**
 * feedback tag "Public Board Comments" (beyond the seed's tags): a visitor of
 * a public board's portal comments on a request without an account, giving a
 * name and, if they like, an e-mail the team alone sees. Taken where the board
 * allows comments and lets anyone post (403 otherwise); held for moderation on
 * a moderated board; limited per address (only its salted hash is kept) and
 * board per hour, counted by the Board actor so the limit holds across nodes;
 * a bot that fills the honeypot field gets the answer of a held comment and
 * nothing is written. The request's subscribers hear of it as of any comment.
 */
import { createHash, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { ANONYMOUS } from "../../actors/feedback/DeskCommand.ts"
import { Email, Name, normalizeEmail } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { board } from "./BoardAsk.ts"
import { HONEYPOT_FIELD } from "./PublicForm.ts"
import { publicCommentExamples } from "./PublicComments.examples.ts"
import {
  PublicComment,
  publicBoard,
  publicRequestByShortId,
  ShortRequestId,
  SlugParams,
  visitorsMayComment,
  WorkspaceQuery
} from "./PublicViews.ts"

export const tag = "Public Board Comments"

/** Comments accepted per address and board per hour. */
export const VISITOR_COMMENTS_PER_HOUR = 10

const RequestParams = Schema.Struct({ slug: SlugParams.fields.slug, shortId: ShortRequestId })

const Receipt = Schema.Struct({
  received: Schema.Boolean,
  moderation: Schema.Literals(["pending", "approved"]),
  comment: Schema.NullOr(PublicComment).annotate({ description: "The comment as visitors see it; null while it waits for moderation" })
}).annotate({ identifier: "PublicCommentReceipt" })

const ipHash = (ip: string) => createHash("sha256").update(`feedback-comment:${ip}`).digest("hex")

const { operation } = tagGroup("feedback", tag, publicCommentExamples)

export const publicCommentOperations = [
  operation({
    operationId: "commentPublicFeatureRequest",
    method: "POST",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/comments",
    summary: "Comment on a public board's request without an account (rate limited, honeypot-guarded)",
    description: `Where the board allows comments and lets anyone post (403 otherwise). At most ${VISITOR_COMMENTS_PER_HOUR} comments per address and board per hour (429). Leave \`${HONEYPOT_FIELD}\` empty. On a moderated board the comment waits for a moderator. The e-mail given stays with the board's team.`,
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    body: Schema.Struct({
      name: Name(100).annotate({ description: "Shown with the comment" }),
      email: Schema.optionalKey(Email.annotate({ description: "To hear back; never shown publicly" })),
      body: Name(5_000).annotate({ description: "Plain text or Markdown, at most 5 000 characters" }),
      [HONEYPOT_FIELD]: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2_000)))
    }),
    responses: {
      202: { description: "Received", schema: Receipt },
      403: { description: "The board takes no comments from visitors" },
      404: { description: "No such public board or request" },
      409: { description: "The request is locked or merged" },
      429: { description: "Too many comments from this address" }
    },
    handler: ({ params, query: q, body }, context) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        if (!visitorsMayComment(view.board.settings)) {
          return yield* reject("forbidden", "This board takes comments from signed-in members only")
        }
        if ((body[HONEYPOT_FIELD] ?? "") !== "") return { received: true, moderation: "pending" as const, comment: null }
        const comment = yield* board(view.board.id).addVisitorComment({
          by: ANONYMOUS,
          commentId: randomUUID(),
          requestId: record.id,
          parentId: null,
          body: body.body.trim(),
          moderationState: view.board.settings.moderation ? "pending" : "approved",
          visitor: {
            name: body.name.trim(),
            email: body.email === undefined ? null : normalizeEmail(body.email),
            ipHash: ipHash(context.clientIp ?? "unknown"),
            perHour: VISITOR_COMMENTS_PER_HOUR
          }
        })
        const approved = comment.moderationState === "approved"
        return {
          received: true,
          moderation: approved ? ("approved" as const) : ("pending" as const),
          comment: approved
            ? {
                id: comment.id,
                parentId: null,
                authorName: comment.authorName,
                body: comment.body,
                edited: false,
                createdAt: comment.createdAt
              }
            : null
        }
      })
  })
]
