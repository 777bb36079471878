/** Request and response examples of the operations in AuthResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleUser, examplePair } from "../../../actors/auth/SessionTokens.ts"

const at = "2026-11-21T12:00:00.000Z"

export const resetAccepted = {
  accepted: true as const,
  message: "If an account uses this address, a reset link is on its way; it works once, for one hour."
}

export const authResourceExamples = examplesById({
  hubLogin: [
    {
      name: "login",
      request: { body: { email: "alice@example.com", password: "correct horse battery" } },
      response: { status: 200, body: examplePair }
    }
  ],
  hubRefreshSession: [
    { name: "refresh", request: { body: { refreshToken: "rt_9b2f….Qm3k…" } }, response: { status: 200, body: examplePair } }
  ],
  hubLogout: [{ name: "logout", response: { status: 204 } }],
  getHubAuthSession: [
    {
      name: "session",
      response: {
        status: 200,
        body: {
          user: exampleUser,
          emailVerifiedAt: at,
          session: {
            id: "9b2f0c4e-1d2a-4f3b-8c5d-6e7f8a9b0c1d",
            createdAt: at,
            lastUsedAt: at,
            expiresAt: "2026-12-21T12:00:00.000Z",
            userAgent: "Mozilla/5.0",
            current: true
          }
        }
      }
    }
  ],
  requestHubPasswordReset: [
    { name: "request", request: { body: { email: "alice@example.com" } }, response: { status: 202, body: resetAccepted } }
  ],
  confirmHubPasswordReset: [
    {
      name: "confirm",
      request: { body: { token: "hrst_Qm3kX9b2fA7cD4eF6gH8iJ0kL2mN4oP6qR8sT0uV1w", newPassword: "a much longer passphrase" } },
      response: { status: 200, body: { changedAt: at, sessionsEnded: 2 } }
    }
  ],
  requestHubEmailVerification: [
    { name: "request", response: { status: 202, body: { sentTo: "alice@example.com", alreadyVerified: false } } }
  ],
  confirmHubEmailVerification: [
    {
      name: "confirm",
      request: { body: { token: "hvrf_Qm3kX9b2fA7cD4eF6gH8iJ0kL2mN4oP6qR8sT0uV1w" } },
      response: { status: 200, body: { email: "alice@example.com", emailVerifiedAt: at } }
    }
  ]
})
