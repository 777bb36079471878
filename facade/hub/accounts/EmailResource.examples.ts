/** Request and response examples of the operations in EmailResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

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

export const emailResourceExamples = examplesById({
  listMyEmails: [{ name: "mine", response: { status: 200, body: { items: [exampleMail] } } }]
})
