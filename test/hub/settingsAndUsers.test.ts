/** The caller's own hub settings and profile, and the workspace's people as the hub shows them. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

let atrium: TestServer
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const workspaceOf = async (token: string) =>
  (await atrium.request("POST", "/pm/v1/workspaces", { token, body: { name: "Acme" } })).body.id as string

describe("hub settings", () => {
  it("starts from defaults, patches each section, validates, and resets", async () => {
    const alice = await signUp(atrium, "Alice")
    const initial = await atrium.request("GET", "/hub/v1/users/me/settings", { token: alice.token })
    expect(initial.body).toMatchObject({ general: { language: "en", timezone: "UTC", transcriptLanguage: null }, updatedAt: null })
    const general = await atrium.request("PATCH", "/hub/v1/users/me/settings", {
      token: alice.token,
      body: { timezone: "Europe/Berlin", transcriptLanguage: "de" }
    })
    expect(general.body.general).toEqual({ language: "en", transcriptLanguage: "de", timezone: "Europe/Berlin" })
    const recording = await atrium.request("PATCH", "/hub/v1/users/me/settings/recording", {
      token: alice.token,
      body: { autoJoin: "all" }
    })
    expect(recording.body).toMatchObject({ autoJoin: "all", recordExternalMeetings: false })
    const notifications = await atrium.request("PATCH", "/hub/v1/users/me/settings/notifications", {
      token: alice.token,
      body: { weeklyDigest: true, recapRecipients: "participants" }
    })
    expect(notifications.body).toMatchObject({ weeklyDigest: true, recapRecipients: "participants", recapEmail: true })
    expect((await atrium.request("GET", "/hub/v1/users/me/settings/recording", { token: alice.token })).body.autoJoin).toBe("all")
    expect((await atrium.request("GET", "/hub/v1/users/me/settings/notifications", { token: alice.token })).body.weeklyDigest).toBe(true)

    for (const [path, body, field] of [
      ["/hub/v1/users/me/settings", { timezone: "Mars/Olympus" }, "body.timezone"],
      ["/hub/v1/users/me/settings", { language: "xx" }, "body.language"],
      ["/hub/v1/users/me/settings/recording", { autoJoin: "sometimes" }, "body.autoJoin"],
      ["/hub/v1/users/me/settings/recording", { botName: "   " }, "body.botName"],
      ["/hub/v1/users/me/settings/notifications", { surprise: true }, "body.surprise"]
    ] as const) {
      const refused = await atrium.request("PATCH", path, { token: alice.token, body })
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.error.details[0].path).toBe(field)
    }
    // Another user's settings are untouched.
    const bob = await signUp(atrium, "Bob")
    expect((await atrium.request("GET", "/hub/v1/users/me/settings", { token: bob.token })).body.general.timezone).toBe("UTC")
    const reset = await atrium.request("DELETE", "/hub/v1/users/me/settings", { token: alice.token })
    expect(reset.body).toMatchObject({
      general: { timezone: "UTC" },
      recording: { autoJoin: "organized" },
      notifications: { weeklyDigest: false }
    })
  })

  it("API keys need users:read to read and users:write to change", async () => {
    const alice = await signUp(atrium, "Alice")
    const workspaceId = await workspaceOf(alice.token)
    const key = (
      await atrium.request("POST", "/hub/v1/api-keys", { token: alice.token, body: { workspaceId, name: "k", scopes: ["users:read"] } })
    ).body.key
    expect((await atrium.request("GET", "/hub/v1/users/me/settings", { apiKey: key })).status).toBe(200)
    expect((await atrium.request("PATCH", "/hub/v1/users/me/settings", { apiKey: key, body: { language: "de" } })).status).toBe(403)
  })
})

describe("hub users", () => {
  it("me: profile details, name, speaker aliases, default workspace", async () => {
    const alice = await signUp(atrium, "Alice")
    const workspaceId = await workspaceOf(alice.token)
    const other = await signUp(atrium, "Other")
    const foreign = await workspaceOf(other.token)
    const updated = await atrium.request("PATCH", "/hub/v1/users/me", { token: alice.token, body: { name: "Alice Smith", jobTitle: "PM" } })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({
      id: alice.userId,
      name: "Alice Smith",
      jobTitle: "PM",
      company: null,
      workspaces: [{ id: workspaceId, role: "owner" }]
    })
    const aliases = await atrium.request("PUT", "/hub/v1/users/me/speaker-aliases", {
      token: alice.token,
      body: { aliases: ["Alice", "alice", "A. Smith"] }
    })
    expect(aliases.body.speakerAliases).toEqual(["Alice", "A. Smith"])
    expect(
      (await atrium.request("PUT", "/hub/v1/users/me/default-workspace", { token: alice.token, body: { workspaceId: foreign } })).status
    ).toBe(404)
    const chosen = await atrium.request("PUT", "/hub/v1/users/me/default-workspace", { token: alice.token, body: { workspaceId } })
    expect(chosen.body.defaultWorkspaceId).toBe(workspaceId)
    const cleared = await atrium.request("PATCH", "/hub/v1/users/me", { token: alice.token, body: { jobTitle: null } })
    expect(cleared.body).toMatchObject({ jobTitle: null, name: "Alice Smith", defaultWorkspaceId: workspaceId })
  })

  it("workspace users: list, get, match attendees' e-mails; strangers see nothing", async () => {
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const eve = await signUp(atrium, "Eve")
    const workspaceId = await workspaceOf(alice.token)
    await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: alice.token,
      body: { email: bob.email, role: "member" }
    })
    await atrium.request("PATCH", "/hub/v1/users/me", { token: bob.token, body: { company: "Acme" } })
    const listed = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/users`, { token: bob.token })
    expect(listed.body.items.map((u: any) => [u.name, u.role])).toEqual([
      ["Alice", "owner"],
      ["Bob", "member"]
    ])
    const got = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/users/${bob.userId}`, { token: alice.token })
    expect(got.body).toMatchObject({ email: bob.email, company: "Acme", role: "member" })
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/users/${eve.userId}`, { token: alice.token })).status).toBe(404)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/users`, { token: eve.token })).status).toBe(404)
    const matched = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/users/match`, {
      token: alice.token,
      body: { emails: [bob.email.toUpperCase(), eve.email, "nobody@example.com"] }
    })
    expect(matched.body.items.map((i: any) => [i.email, i.user?.id ?? null])).toEqual([
      [bob.email, bob.userId],
      [eve.email, null],
      ["nobody@example.com", null]
    ])
  })
})
