/** Request and response examples of the operations in Authentication.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleUser, examplePair } from "../../actors/auth/SessionTokens.ts"

export const authenticationExamples = examplesById({
  register: [
    {
      name: "register",
      request: { body: { email: "alice@example.com", password: "correct horse battery", name: "Alice" } },
      response: { status: 201, body: { user: exampleUser } }
    }
  ],
  login: [
    {
      name: "login",
      request: { body: { email: "alice@example.com", password: "correct horse battery" } },
      response: { status: 200, body: examplePair }
    }
  ],
  refreshToken: [{ name: "refresh", request: { body: { refreshToken: "rt_9b2f….Qm3k…" } }, response: { status: 200, body: examplePair } }],
  logout: [{ name: "logout", response: { status: 204 } }],
  logoutAll: [{ name: "logout-everywhere", response: { status: 200, body: { revoked: 3 } } }],
  getCurrentUser: [{ name: "me", response: { status: 200, body: exampleUser } }],
  changePassword: [
    {
      name: "change-password",
      request: { body: { currentPassword: "correct horse battery", newPassword: "a much longer passphrase" } },
      response: { status: 200, body: { changedAt: "2026-11-21T12:00:00.000Z", sessionsEnded: 2 } }
    }
  ],
  listSessions: [
    {
      name: "sessions",
      response: {
        status: 200,
        body: {
          sessions: [
            {
              id: "9b2f0c4e-1d2a-4f3b-8c5d-6e7f8a9b0c1d",
              createdAt: "2026-11-21T12:00:00.000Z",
              lastUsedAt: "2026-11-21T12:10:00.000Z",
              expiresAt: "2026-12-21T12:00:00.000Z",
              userAgent: null,
              current: true
            }
          ]
        }
      }
    }
  ]
})
