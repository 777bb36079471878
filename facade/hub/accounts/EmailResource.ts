/** hub tag "Email Resource" (1): the mails the hub sent to the caller, read from the outbox. */
import { Effect, Schema } from "effect"
import { Mail, MailKind, mailsTo } from "../../../actors/hub/Mail.ts"
import { userOf } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { emailResourceExamples } from "./EmailResource.examples.ts"
export { exampleMail } from "./EmailResource.examples.ts"

const { operation } = tagGroup("hub", "Email Resource", emailResourceExamples)

export const emailResourceOperations = [
  operation({
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
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const items = yield* Effect.orDie(mailsTo(user.email, { ...(query.kind ? { kind: query.kind } : {}), limit: query.limit ?? 50 }))
        return { items }
      })
  })
]
