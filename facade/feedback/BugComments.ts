/**
 * feedback tag "Bug Comment Resource" (2): the discussion of a bug report.
 * Internal notes are the team's (never shown to anyone else); with
 * moderation on, a comment from outside the team waits in the queue.
 */
import { Effect, Schema } from "effect"
import { bugComments } from "../../actors/feedback/DeskQueries.ts"
import { BugComment } from "../../actors/feedback/DeskRecords.ts"
import { Id } from "../../actors/Fields.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { type BoardCaller, heldFor } from "./DeskAccess.ts"
import { bugFor } from "./BugReports.ts"

import { bugCommentsExamples } from "./BugComments.examples.ts"
import { desk } from "./BoardAsk.ts"

export const CommentBody = Schema.String.check(Schema.isMaxLength(20_000), Schema.isPattern(/\S/, { expected: "a non-blank comment" }))

/** The comments the caller may see: internal notes, pending and declined ones are the team's (pending also its author's). */
export const visibleComments = (caller: BoardCaller, comments: ReadonlyArray<BugComment>) =>
  comments.filter(
    (c) => caller.team || (!c.internal && (c.moderation === "approved" || (c.moderation === "pending" && c.authorId === caller.userId)))
  )

/** Adds a comment as the caller; internal notes only from the team. */
export const commentOnBug = (context: Parameters<typeof bugFor>[0], bugReportId: string, body: string, internal: boolean) =>
  Effect.gen(function* () {
    const { caller, bug } = yield* bugFor(context, bugReportId, "see")
    if (!caller.view.board.settings.allowComments && !caller.team) return yield* reject("forbidden", "Comments are closed on this board")
    if (internal && !caller.team) {
      return yield* reject("forbidden", "Only the board's team may write internal notes", [{ path: "body.internal", message: "team only" }])
    }
    const moderation = internal ? "approved" : yield* heldFor(caller)
    return yield* desk(caller.view.board.id).commentBug({ by: caller.userId, input: { bugReportId: bug.id, body, internal, moderation } })
  })

const { operation } = tagGroup("feedback", "Bug Comment Resource", bugCommentsExamples)

export const bugCommentOperations = [
  operation({
    operationId: "listBugReportComments",
    method: "GET",
    path: "/v1/bug-reports/{bugReportId}/comments",
    summary: "The comments on a bug report, oldest first (internal notes only for the team)",
    auth: "both",
    scopes: ["feedback:read"],
    params: Schema.Struct({ bugReportId: Id }),
    responses: { 200: { description: "Comments", schema: Schema.Struct({ items: Schema.Array(BugComment) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugFor(context, params.bugReportId, "see")
        return { items: visibleComments(caller, yield* orDieStore(bugComments(bug.id))) }
      })
  }),
  operation({
    operationId: "createBugReportComment",
    method: "POST",
    path: "/v1/bug-reports/{bugReportId}/comments",
    summary: "Comment on a bug report; the team may add internal notes",
    auth: "both",
    scopes: ["feedback:write"],
    params: Schema.Struct({ bugReportId: Id }),
    body: Schema.Struct({
      body: CommentBody,
      internal: Schema.optionalKey(Schema.Boolean.annotate({ description: "A team-only note (default false)" }))
    }),
    responses: { 201: { description: "The comment", schema: BugComment } },
    handler: ({ params, body }, context) => commentOnBug(context, params.bugReportId, body.body, body.internal ?? false)
  })
]
