/** Request and response examples of the operations in Chat.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds, exampleReply, exampleCitation } from "./Examples.ts"

export const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`

const bodyExample = { message: "What did Bob promise about the login bug?", workspaceId: exampleIds.workspaceId }

export const lensExamples = examplesById({
  chatWithLens: [{ name: "single-route", request: { body: bodyExample }, response: { status: 200, body: exampleReply } }]
})
export const lensStreamingResourceExamples = examplesById({
  streamLensChat: [
    {
      name: "stream",
      request: { body: bodyExample },
      response: {
        status: 200,
        body: `${event("step", exampleReply.trace.steps[0])}${event("citation", exampleCitation)}${event("delta", { text: exampleReply.answer })}${event("final", exampleReply)}`
      }
    }
  ]
})
export const lensChatResourceExamples = examplesById({
  getLensThread: [
    {
      name: "thread",
      request: { params: { threadId: exampleIds.threadId } },
      response: {
        status: 200,
        body: {
          id: exampleIds.threadId,
          workspaceId: exampleIds.workspaceId,
          title: bodyExample.message,
          turns: [
            {
              answerId: exampleIds.answerId,
              message: bodyExample.message,
              answer: exampleReply.answer,
              citations: exampleReply.citations,
              trace: exampleReply.trace,
              followUps: exampleReply.followUps,
              createdAt: "2026-11-21T12:00:00.000Z"
            }
          ],
          createdAt: "2026-11-21T12:00:00.000Z",
          updatedAt: "2026-11-21T12:00:00.000Z"
        }
      }
    }
  ]
})
