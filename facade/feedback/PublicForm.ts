/**
 * feedback tag "Public Form Resource" (1): an anonymous visitor submits a
 * feature request or a bug report to a public board that lets anyone post.
 * Limited per IP address (only its salted hash is kept) and board — the
 * board's desk counts and records submissions one at a time, so the limit
 * holds across nodes — and guarded by a honeypot field: a bot that fills
 * `website` gets the same answer as a moderated submission, and nothing is
 * created. With moderation on, submissions wait in the queue. The e-mail
 * given stays with the team: no public read shows it.
 */
import { createHash, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { ANONYMOUS } from "../../actors/feedback/DeskCommand.ts"
import { descriptionFrom, emptyDescription } from "../../actors/feedback/Description.ts"
import { Environment } from "../../actors/feedback/DeskRecords.ts"
import { type BoardSettings, shortIdOf } from "../../actors/feedback/FeedbackModel.ts"
import { Email, Name } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"

import { publicBoard, SlugParams, WorkspaceQuery } from "./PublicViews.ts"
import { publicFormExamples } from "./PublicForm.examples.ts"
import { board, desk } from "./BoardAsk.ts"

/** Submissions accepted per IP address and board per hour. */
export const FORM_SUBMISSIONS_PER_HOUR = 5
/** The field humans never see (hidden by the form's CSS) and bots fill in. */
export const HONEYPOT_FIELD = "website"

export const PublicFormSpec = Schema.Struct({
  kinds: Schema.Array(Schema.Literals(["featureRequest", "bugReport"])),
  fields: Schema.Array(Schema.Struct({ name: Schema.String, required: Schema.Boolean, maxLength: Schema.Number })),
  honeypotField: Schema.String.annotate({ description: "Render it hidden and leave it empty; submissions that fill it are discarded" }),
  submissionsPerHour: Schema.Number.annotate({ description: "Per address and board" }),
  moderated: Schema.Boolean.annotate({ description: "Submissions wait for a moderator before they show" })
}).annotate({ identifier: "PublicFeedbackForm" })

export const formSpec = (settings: Pick<BoardSettings, "moderation">): typeof PublicFormSpec.Type => ({
  kinds: ["featureRequest", "bugReport"],
  fields: [
    { name: "title", required: true, maxLength: 300 },
    { name: "details", required: false, maxLength: 20_000 },
    { name: "email", required: false, maxLength: 254 },
    { name: "name", required: false, maxLength: 100 }
  ],
  honeypotField: HONEYPOT_FIELD,
  submissionsPerHour: FORM_SUBMISSIONS_PER_HOUR,
  moderated: settings.moderation
})

const Receipt = Schema.Struct({
  received: Schema.Boolean,
  kind: Schema.Literals(["featureRequest", "bugReport"]),
  shortId: Schema.NullOr(Schema.String).annotate({
    description: "FR-n or B-n once it shows on the board; null while it waits for moderation"
  }),
  moderation: Schema.Literals(["pending", "approved"])
}).annotate({ identifier: "PublicFormReceipt" })

const ipHash = (ip: string) => createHash("sha256").update(`feedback-form:${ip}`).digest("hex")

const { operation } = tagGroup("feedback", "Public Form Resource", publicFormExamples)

export const publicFormOperations = [
  operation({
    operationId: "submitPublicForm",
    method: "POST",
    path: "/v1/public/boards/{slug}/form",
    summary: "Submit a feature request or bug report to a public board without an account (rate limited, honeypot-guarded)",
    description: `At most ${FORM_SUBMISSIONS_PER_HOUR} submissions per address and board per hour (429). Leave \`${HONEYPOT_FIELD}\` empty. Only boards where anyone may post take submissions (403 otherwise).`,
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    body: Schema.Struct({
      kind: Schema.Literals(["featureRequest", "bugReport"]),
      title: Name(300),
      details: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(20_000)).annotate({ description: "Markdown" })),
      email: Schema.optionalKey(Email.annotate({ description: "To hear back; never shown publicly" })),
      name: Schema.optionalKey(Name(100)),
      environment: Schema.optionalKey(Environment),
      [HONEYPOT_FIELD]: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2_000)))
    }),
    responses: {
      202: { description: "Received", schema: Receipt },
      403: { description: "The board does not take anonymous submissions" },
      429: { description: "Too many submissions from this address" }
    },
    handler: ({ params, query: q, body }, context) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        if (view.board.settings.whoMayPost !== "anyone")
          return yield* reject("forbidden", "This board takes posts from signed-in members only")
        const honeypot = (body[HONEYPOT_FIELD] ?? "") !== ""
        const moderation = view.board.settings.moderation || honeypot ? ("pending" as const) : ("approved" as const)
        const description =
          (yield* descriptionFrom({ markdown: body.details }, { markdown: "body.details", content: "body.details" })) ?? emptyDescription()
        const receipt = yield* desk(view.board.id).submitForm({
          by: ANONYMOUS,
          input: {
            workspaceId: view.board.workspaceId,
            kind: body.kind,
            title: body.title,
            details: body.details ?? "",
            ...(body.environment !== undefined ? { environment: body.environment } : {}),
            email: body.email ?? null,
            name: body.name ?? null,
            ipHash: ipHash(context.clientIp ?? "unknown"),
            honeypot,
            perHour: FORM_SUBMISSIONS_PER_HOUR,
            moderation
          }
        })
        const answer = { received: true, kind: body.kind, moderation, shortId: null as string | null }
        if (honeypot) return answer
        if (body.kind === "bugReport") {
          const number = receipt.bugReportId === null ? null : yield* bugNumber(view.board.id, receipt.bugReportId)
          return { ...answer, shortId: moderation === "approved" ? number : null }
        }
        const record = yield* board(view.board.id).createRequest({
          by: ANONYMOUS,
          requestId: randomUUID(),
          title: body.title,
          ...description,
          authorId: null,
          authorName: body.name ?? "Anonymous",
          moderationState: moderation
        })
        yield* desk(view.board.id).attachSubmission({ by: ANONYMOUS, input: { submissionId: receipt.submissionId, targetId: record.id } })
        return { ...answer, shortId: moderation === "approved" ? shortIdOf(record.number) : null }
      })
  })
]

const bugNumber = (boardId: string, bugReportId: string) =>
  Effect.map(desk(boardId).bugs({}), (bugs) => bugs.find((b) => b.id === bugReportId)?.shortId ?? null)
