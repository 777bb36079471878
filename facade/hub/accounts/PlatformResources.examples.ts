/** Request and response examples of the operations in PlatformResources.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const at = "2026-11-21T12:00:00.000Z"

export const betaWaitlistResourceExamples = examplesById({
  joinBetaWaitlist: [
    {
      name: "join",
      request: { body: { email: "dana@example.com", name: "Dana", company: "Northwind", useCase: "Meeting notes into our tracker" } },
      response: { status: 202, body: { email: "dana@example.com", position: 42, joinedAt: at, alreadyJoined: false } }
    }
  ]
})
export const feedbackResourceExamples = examplesById({
  submitProductFeedback: [
    {
      name: "idea",
      request: { body: { category: "idea", message: "Let me pin a meeting summary to a wiki page.", rating: 4, pageUrl: "/wiki/ENG" } },
      response: {
        status: 201,
        body: {
          id: "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
          category: "idea",
          message: "Let me pin a meeting summary to a wiki page.",
          rating: 4,
          pageUrl: "/wiki/ENG",
          createdAt: at,
          notifiedAdmins: 1
        }
      }
    }
  ]
})
export const internalApiKeyResourceExamples = examplesById({
  introspectHubInternalApiKey: [
    {
      name: "live-key",
      request: { body: { key: "atr_live_5f2c…" } },
      response: {
        status: 200,
        body: {
          active: true,
          keyId: "4d5e6f70-8192-4a3b-9c4d-5e6f70819203",
          workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
          userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
          scopes: ["recordings:read"]
        }
      }
    }
  ]
})
