/** hub tag "Email Resource" (1): the mails the hub sent to the caller, read from the outbox. */
import { Effect, Schema } from "effect"
import { Mail, MailKind, mailsTo } from "../../../actors/hub/Mail.ts"
import { userOf } from "../../Access.ts"
import { operation } from "../../Operation.ts"

export const exampleMail = {
  id: "5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f",
  to: "alice@example.com",
  kind: "password_reset",
  subject: "Reset your Atrium password",
  text: "Hello Alice,\n\nSomeone (hopefully you) asked to reset the password of your Atrium account.\n…",
  status: "sent",
  attempts: 1,
  lastError: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  sentAt: "2026-11-21T12:00:01.000Z"
}

export const emailResourceOperations = [
  operation({
    service: "hub",
    tag: "Email Resource",
    operationId: "listMyEmails",
    method: "GET",
    path: "/v1/emails",
    summary: "The mails the hub sent to the caller's address, newest first, with their delivery status",
    description:
      "Password resets, address verifications, invitations, feedback copies and test mails: what was sent, and whether the SMTP server took it (status, attempts, last error).",
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({
      kind: Schema.optionalKey(MailKind),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: { 200: { description: "Mails", schema: Schema.Struct({ items: Schema.Array(Mail) }) } },
    examples: [{ name: "mine", response: { status: 200, body: { items: [exampleMail] } } }],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const items = yield* Effect.orDie(mailsTo(user.email, { ...(query.kind ? { kind: query.kind } : {}), limit: query.limit ?? 50 }))
        return { items }
      })
  })
]
