/** Request and response examples of the operations in Bots.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

export const connectionId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"

const exampleBot = {
  connectionId,
  workspaceId: exampleIds.workspaceId,
  surface: "chatapp" as const,
  actAs: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const exampleBotParams = { workspaceId: exampleIds.workspaceId, connectionId }

export const botsExamples = examplesById({
  installLensBot: [
    {
      name: "install",
      request: { params: exampleBotParams, body: { surface: "chatapp", signingSecret: "8f7e6d5c4b3a29181716151413121110" } },
      response: { status: 200, body: exampleBot }
    }
  ],
  getLensBot: [{ name: "get", request: { params: exampleBotParams }, response: { status: 200, body: exampleBot } }]
})
