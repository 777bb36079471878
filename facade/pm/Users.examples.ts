/** Request and response examples of the operations in Users.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { notificationReasons } from "../../actors/pm/ReferenceData.ts"

const alice = {
  id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  email: "alice@example.com",
  name: "Alice",
  createdAt: "2026-11-21T12:00:00.000Z",
  title: "Engineering manager",
  department: "Platform",
  bio: null,
  phone: null,
  avatarUrl: "/pm/v1/users/6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f/avatar?v=2026-11-21T12%3A00%3A00.000Z",
  status: { text: "In a meeting", emoji: "📅", clearAt: "2026-11-21T13:00:00.000Z", setAt: "2026-11-21T12:00:00.000Z" }
}

const ws = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleSettings = {
  timezone: "Europe/Berlin",
  locale: "de-DE",
  dateFormat: "DD.MM.YYYY",
  timeFormat: "24h",
  weekStart: "monday",
  theme: "dark",
  defaultWorkspaceId: ws
}

const exampleNotificationPrefs = {
  reasons: Object.fromEntries(notificationReasons.map((r) => [r, r !== "watching"])),
  mutedWorkspaceIds: []
}

const exampleWorkspacePrefs = { homeSpaceId: null, defaultViewType: "board", sidebarCollapsed: false, pinnedSpaceIds: [] }

export const usersExamples = examplesById({
  getMyProfile: [{ name: "me", response: { status: 200, body: alice } }],
  updateMyProfile: [
    { name: "title", request: { body: { title: "Engineering manager", department: "Platform" } }, response: { status: 200, body: alice } }
  ],
  getUserProfile: [{ name: "get", request: { params: { userId: alice.id } }, response: { status: 200, body: alice } }],
  listWorkspaceUsers: [
    {
      name: "list",
      request: { params: { workspaceId: ws }, query: { q: "ali" } },
      response: { status: 200, body: { items: [{ ...alice, role: "owner" }] } }
    }
  ],
  lookupWorkspaceUserByEmail: [
    {
      name: "lookup",
      request: { params: { workspaceId: ws }, query: { email: "alice@example.com" } },
      response: { status: 200, body: { ...alice, role: "owner" } }
    }
  ],
  getUsersBatch: [
    { name: "batch", request: { body: { ids: [alice.id] } }, response: { status: 200, body: { items: [alice], missing: [] } } }
  ],
  setMyStatus: [{ name: "meeting", request: { body: { preset: "meeting" } }, response: { status: 200, body: alice.status } }],
  clearMyStatus: [{ name: "clear", response: { status: 204 } }],
  getMySettings: [{ name: "get", response: { status: 200, body: exampleSettings } }],
  updateMySettings: [
    {
      name: "berlin",
      request: { body: { timezone: "Europe/Berlin", locale: "de-DE", dateFormat: "DD.MM.YYYY" } },
      response: { status: 200, body: exampleSettings }
    }
  ],
  resetMySettings: [
    {
      name: "reset",
      response: {
        status: 200,
        body: {
          timezone: "UTC",
          locale: "en-US",
          dateFormat: "YYYY-MM-DD",
          timeFormat: "24h",
          weekStart: "monday",
          theme: "system",
          defaultWorkspaceId: null
        }
      }
    }
  ],
  getMyNotificationPreferences: [{ name: "get", response: { status: 200, body: exampleNotificationPrefs } }],
  updateMyNotificationPreferences: [
    {
      name: "mute-watching",
      request: { body: { reasons: { watching: false } } },
      response: { status: 200, body: exampleNotificationPrefs }
    }
  ],
  getMyWorkspacePreferences: [
    { name: "get", request: { params: { workspaceId: ws } }, response: { status: 200, body: exampleWorkspacePrefs } }
  ],
  updateMyWorkspacePreferences: [
    {
      name: "board",
      request: { params: { workspaceId: ws }, body: { defaultViewType: "board" } },
      response: { status: 200, body: exampleWorkspacePrefs }
    }
  ],
  uploadMyAvatar: [
    {
      name: "png",
      response: {
        status: 200,
        body: { avatarUrl: alice.avatarUrl, contentType: "image/png", size: 20480, updatedAt: "2026-11-21T12:00:00.000Z" }
      }
    }
  ],
  deleteMyAvatar: [{ name: "remove", response: { status: 204 } }],
  getUserAvatar: [{ name: "avatar", request: { params: { userId: alice.id } }, response: { status: 200 } }],
  getPasswordPolicy: [
    { name: "policy", response: { status: 200, body: { minLength: 8, maxLength: 200, minScore: 2, rules: ["At least 8 characters"] } } }
  ],
  checkPasswordStrength: [
    {
      name: "weak",
      request: { body: { password: "password123" } },
      response: {
        status: 200,
        body: {
          score: 0,
          acceptable: false,
          warnings: ["This is one of the most common passwords"],
          suggestions: ["Use a longer passphrase of several unrelated words"]
        }
      }
    }
  ],
  verifyMyPassword: [
    {
      name: "verify",
      request: { body: { password: "correct horse battery" } },
      response: { status: 200, body: { verified: true, verifiedAt: "2026-11-21T12:00:00.000Z" } }
    }
  ],
  changeMyPassword: [
    {
      name: "change",
      request: { body: { currentPassword: "correct horse battery", newPassword: "Lantern-orbit-57-quietly" } },
      response: {
        status: 200,
        body: {
          changedAt: "2026-11-21T12:00:00.000Z",
          sessionsEnded: 1,
          strength: { score: 4, acceptable: true, warnings: [], suggestions: [] }
        }
      }
    }
  ],
  exportMyData: [
    {
      name: "export",
      response: {
        status: 200,
        body: {
          exportedAt: "2026-11-21T12:00:00.000Z",
          profile: alice,
          settings: exampleSettings,
          notificationPreferences: exampleNotificationPrefs,
          workspacePreferences: { [ws]: exampleWorkspacePrefs },
          workspaces: [{ id: ws, name: "Acme", role: "owner" }],
          teams: [],
          notifications: []
        }
      }
    }
  ]
})
