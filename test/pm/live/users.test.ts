/** pm "Users": profiles, status, settings, preferences, avatars, password management and data export. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { addMember, createWorkspace, type LiveAtrium, seedSpace, startLiveAtrium } from "./support.ts"

let atrium: LiveAtrium
beforeAll(async () => {
  atrium = await startLiveAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const setup = async () => {
  const alice = await signUp(atrium, "Alice")
  const bob = await signUp(atrium, "Bob")
  const stranger = await signUp(atrium, "Stranger")
  const workspaceId = await createWorkspace(atrium, alice.token)
  await addMember(atrium, alice.token, workspaceId, bob.email, "member")
  return { alice, bob, stranger, workspaceId }
}

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4])

describe("profiles", () => {
  it("reads and updates the caller's profile; co-workers see it, strangers do not", async () => {
    const { alice, bob, stranger, workspaceId } = await setup()
    const mine = await atrium.request("GET", "/pm/v1/users/me", { token: alice.token })
    expect(mine.body).toMatchObject({ id: alice.userId, email: alice.email, name: "Alice", title: null, avatarUrl: null, status: null })
    const updated = await atrium.request("PATCH", "/pm/v1/users/me", {
      token: alice.token,
      body: { name: "Alice Liddell", title: "Engineering manager", phone: "+49 30 1234567" }
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ name: "Alice Liddell", title: "Engineering manager", phone: "+49 30 1234567", bio: null })
    expect((await atrium.request("PATCH", "/pm/v1/users/me", { token: alice.token, body: { phone: "call me" } })).status).toBe(400)
    expect((await atrium.request("PATCH", "/pm/v1/users/me", { token: alice.token, body: { title: null } })).body.title).toBeNull()
    expect((await atrium.request("GET", `/pm/v1/users/${alice.userId}`, { token: bob.token })).body).toMatchObject({
      name: "Alice Liddell"
    })
    expect((await atrium.request("GET", `/pm/v1/users/${alice.userId}`, { token: stranger.token })).status).toBe(404)
    expect((await atrium.request("GET", `/pm/v1/users/${crypto.randomUUID()}`, { token: bob.token })).status).toBe(404)
    const users = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/users`, { token: bob.token })
    expect(users.body.items.map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([
      ["Alice Liddell", "owner"],
      ["Bob", "member"]
    ])
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/users?q=BOB&role=member`, { token: bob.token })).body.items.length
    ).toBe(1)
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/users`, { token: stranger.token })).status).toBe(404)
    const found = await atrium.request(
      "GET",
      `/pm/v1/workspaces/${workspaceId}/users/lookup?email=${encodeURIComponent(bob.email.toUpperCase())}`,
      { token: alice.token }
    )
    expect(found.body).toMatchObject({ id: bob.userId, role: "member" })
    const notMember = await atrium.request(
      "GET",
      `/pm/v1/workspaces/${workspaceId}/users/lookup?email=${encodeURIComponent(stranger.email)}`,
      { token: alice.token }
    )
    expect(notMember.status).toBe(404)
    expect(notMember.body.error.details[0].path).toBe("query.email")
    const batch = await atrium.request("POST", "/pm/v1/users/batch", {
      token: bob.token,
      body: { ids: [alice.userId, stranger.userId, bob.userId] }
    })
    expect(batch.body.items.map((u: { id: string }) => u.id).sort()).toEqual([alice.userId, bob.userId].sort())
    expect(batch.body.missing).toEqual([stranger.userId])
    expect((await atrium.request("POST", "/pm/v1/users/batch", { token: bob.token, body: { ids: [] } })).status).toBe(400)
  })

  it("sets and clears a status, from text or a preset", async () => {
    const { alice, bob } = await setup()
    const preset = await atrium.request("PUT", "/pm/v1/users/me/status", { token: alice.token, body: { preset: "meeting" } })
    expect(preset.body).toMatchObject({ text: "In a meeting", emoji: "📅", clearAt: expect.any(String) })
    expect(Date.parse(preset.body.clearAt) - Date.now()).toBeGreaterThan(50 * 60_000)
    const custom = await atrium.request("PUT", "/pm/v1/users/me/status", {
      token: alice.token,
      body: { text: "Heads down", emoji: "🎯", clearAfterMinutes: null }
    })
    expect(custom.body).toMatchObject({ text: "Heads down", clearAt: null })
    expect((await atrium.request("GET", `/pm/v1/users/${alice.userId}`, { token: bob.token })).body.status.text).toBe("Heads down")
    expect((await atrium.request("PUT", "/pm/v1/users/me/status", { token: alice.token, body: { emoji: "x" } })).status).toBe(400)
    expect(
      (
        await atrium.request("PUT", "/pm/v1/users/me/status", {
          token: alice.token,
          body: { text: "Past", clearAt: "2000-01-01T00:00:00Z" }
        })
      ).status
    ).toBe(400)
    expect((await atrium.request("PUT", "/pm/v1/users/me/status", { token: alice.token, body: { preset: "napping" } })).status).toBe(400)
    expect((await atrium.request("DELETE", "/pm/v1/users/me/status", { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", "/pm/v1/users/me", { token: alice.token })).body.status).toBeNull()
  })
})

describe("settings and preferences", () => {
  it("validates display settings against the reference data and resets them", async () => {
    const { alice, workspaceId } = await setup()
    expect((await atrium.request("GET", "/pm/v1/users/me/settings", { token: alice.token })).body).toEqual({
      timezone: "UTC",
      locale: "en-US",
      dateFormat: "YYYY-MM-DD",
      timeFormat: "24h",
      weekStart: "monday",
      theme: "system",
      defaultWorkspaceId: null
    })
    const changed = await atrium.request("PATCH", "/pm/v1/users/me/settings", {
      token: alice.token,
      body: { timezone: "Europe/Berlin", locale: "de-DE", dateFormat: "DD.MM.YYYY", theme: "dark", defaultWorkspaceId: workspaceId }
    })
    expect(changed.body).toMatchObject({
      timezone: "Europe/Berlin",
      locale: "de-DE",
      theme: "dark",
      defaultWorkspaceId: workspaceId,
      timeFormat: "24h"
    })
    for (const [field, value] of [
      ["timezone", "Mars/Olympus"],
      ["locale", "xx-XX"],
      ["dateFormat", "YY"],
      ["theme", "neon"],
      ["weekStart", "friday"]
    ] as const) {
      const refused = await atrium.request("PATCH", "/pm/v1/users/me/settings", { token: alice.token, body: { [field]: value } })
      expect(refused.status, field).toBe(400)
      expect(refused.body.error.details[0].path, field).toBe(`body.${field}`)
    }
    const elsewhere = await atrium.request("PATCH", "/pm/v1/users/me/settings", {
      token: alice.token,
      body: { defaultWorkspaceId: crypto.randomUUID() }
    })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.error.details[0].path).toBe("body.defaultWorkspaceId")
    // Zone aliases ICU knows are accepted too.
    expect(
      (await atrium.request("PATCH", "/pm/v1/users/me/settings", { token: alice.token, body: { timezone: "Asia/Kolkata" } })).body.timezone
    ).toBe("Asia/Kolkata")
    expect((await atrium.request("DELETE", "/pm/v1/users/me/settings", { token: alice.token })).body.timezone).toBe("UTC")
  })

  it("keeps notification and per-workspace preferences", async () => {
    const { alice, bob, workspaceId } = await setup()
    const prefs = await atrium.request("GET", "/pm/v1/users/me/settings/notifications", { token: bob.token })
    expect(prefs.body.reasons).toMatchObject({ assigned: true, mentioned: true, due_soon: true })
    const muted = await atrium.request("PATCH", "/pm/v1/users/me/settings/notifications", {
      token: bob.token,
      body: { reasons: { watching: false }, mutedWorkspaceIds: [workspaceId] }
    })
    expect(muted.body).toMatchObject({ reasons: { watching: false, assigned: true }, mutedWorkspaceIds: [workspaceId] })
    expect(
      (await atrium.request("PATCH", "/pm/v1/users/me/settings/notifications", { token: bob.token, body: { reasons: { sneezed: false } } }))
        .status
    ).toBe(400)
    expect(
      (
        await atrium.request("PATCH", "/pm/v1/users/me/settings/notifications", {
          token: bob.token,
          body: { mutedWorkspaceIds: [crypto.randomUUID()] }
        })
      ).status
    ).toBe(400)

    expect((await atrium.request("GET", `/pm/v1/users/me/workspaces/${workspaceId}/preferences`, { token: bob.token })).body).toEqual({
      homeSpaceId: null,
      defaultViewType: null,
      sidebarCollapsed: false,
      pinnedSpaceIds: []
    })
    const spaceId = await seedSpace(atrium, workspaceId, alice.userId)
    const secret = await seedSpace(atrium, workspaceId, alice.userId, { isPrivate: true })
    const set = await atrium.request("PATCH", `/pm/v1/users/me/workspaces/${workspaceId}/preferences`, {
      token: bob.token,
      body: { homeSpaceId: spaceId, defaultViewType: "board", pinnedSpaceIds: [spaceId, spaceId] }
    })
    expect(set.body).toEqual({ homeSpaceId: spaceId, defaultViewType: "board", sidebarCollapsed: false, pinnedSpaceIds: [spaceId] })
    const hidden = await atrium.request("PATCH", `/pm/v1/users/me/workspaces/${workspaceId}/preferences`, {
      token: bob.token,
      body: { pinnedSpaceIds: [spaceId, secret] }
    })
    expect(hidden.status).toBe(400)
    expect(hidden.body.error.details[0].path).toBe("body.pinnedSpaceIds.1")
    expect(
      (
        await atrium.request("PATCH", `/pm/v1/users/me/workspaces/${workspaceId}/preferences`, {
          token: bob.token,
          body: { defaultViewType: "hologram" }
        })
      ).status
    ).toBe(400)
    expect(
      (await atrium.request("GET", `/pm/v1/users/me/workspaces/${crypto.randomUUID()}/preferences`, { token: bob.token })).status
    ).toBe(404)
  })
})

describe("avatars", () => {
  it("uploads, serves to co-workers only, replaces and deletes an avatar", async () => {
    const { alice, bob, stranger } = await setup()
    const put = (body: Uint8Array, contentType: string) =>
      atrium.request("PUT", "/pm/v1/users/me/avatar", { token: alice.token, rawBody: body, headers: { "content-type": contentType } })
    const uploaded = await put(png, "image/png")
    expect(uploaded.status).toBe(200)
    expect(uploaded.body).toMatchObject({
      contentType: "image/png",
      size: png.length,
      avatarUrl: expect.stringMatching(`^/pm/v1/users/${alice.userId}/avatar\\?v=`)
    })
    expect((await atrium.request("GET", "/pm/v1/users/me", { token: alice.token })).body.avatarUrl).toBe(uploaded.body.avatarUrl)
    const image = await fetch(atrium.origin + uploaded.body.avatarUrl, { headers: { authorization: `Bearer ${bob.token}` } })
    expect(image.status).toBe(200)
    expect(image.headers.get("content-type")).toBe("image/png")
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(png)
    const etag = image.headers.get("etag")!
    expect(
      (await atrium.request("GET", `/pm/v1/users/${alice.userId}/avatar`, { token: bob.token, headers: { "if-none-match": etag } })).status
    ).toBe(304)
    expect((await atrium.request("GET", `/pm/v1/users/${alice.userId}/avatar`, { token: stranger.token })).status).toBe(404)
    // The bytes must match the declared type; other types and sizes are refused.
    expect((await put(png, "image/jpeg")).status).toBe(400)
    expect((await put(png, "application/pdf")).status).toBe(415)
    expect((await put(new Uint8Array(3 * 1024 * 1024), "image/png")).status).toBe(413)
    const gif = new TextEncoder().encode("GIF89a-tiny-image")
    expect((await put(gif, "image/gif")).body.contentType).toBe("image/gif")
    expect((await atrium.request("DELETE", "/pm/v1/users/me/avatar", { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `/pm/v1/users/${alice.userId}/avatar`, { token: alice.token })).status).toBe(404)
    expect((await atrium.request("GET", "/pm/v1/users/me", { token: alice.token })).body.avatarUrl).toBeNull()
  })
})

describe("passwords and data", () => {
  it("publishes the policy and scores candidates", async () => {
    const policy = await atrium.request("GET", "/pm/v1/users/password-policy")
    expect(policy.body).toMatchObject({ minLength: 8, maxLength: 200, minScore: 2 })
    const weak = await atrium.request("POST", "/pm/v1/users/password-strength", { body: { password: "password123" } })
    expect(weak.body).toMatchObject({ score: 0, acceptable: false })
    const personal = await atrium.request("POST", "/pm/v1/users/password-strength", {
      body: { password: "alicealice2026!", email: "alice@example.com" }
    })
    expect(personal.body.warnings).toContain("Contains your name or e-mail address")
    const strong = await atrium.request("POST", "/pm/v1/users/password-strength", { body: { password: "Lantern-orbit-57-quietly" } })
    expect(strong.body).toMatchObject({ score: 4, acceptable: true, warnings: [] })
  })

  it("verifies and changes the password, ending other sessions; API keys cannot", async () => {
    const { alice, workspaceId } = await setup()
    const other = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: alice.email, password: alice.password } })
    const verified = await atrium.request("POST", "/pm/v1/users/me/password/verify", {
      token: alice.token,
      body: { password: alice.password }
    })
    expect(verified.body).toMatchObject({ verified: true })
    const wrong = await atrium.request("POST", "/pm/v1/users/me/password/verify", {
      token: alice.token,
      body: { password: "nope nope nope" }
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details[0].path).toBe("body.password")
    const weak = await atrium.request("POST", "/pm/v1/users/me/password", {
      token: alice.token,
      body: { currentPassword: alice.password, newPassword: "password123" }
    })
    expect(weak.status).toBe(400)
    expect(weak.body.error.details[0].path).toBe("body.newPassword")
    const badCurrent = await atrium.request("POST", "/pm/v1/users/me/password", {
      token: alice.token,
      body: { currentPassword: "wrong wrong", newPassword: "Lantern-orbit-57-quietly" }
    })
    expect(badCurrent.status).toBe(400)
    const changed = await atrium.request("POST", "/pm/v1/users/me/password", {
      token: alice.token,
      body: { currentPassword: alice.password, newPassword: "Lantern-orbit-57-quietly" }
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ sessionsEnded: 1, strength: { acceptable: true } })
    expect((await atrium.request("GET", "/pm/v1/users/me", { token: other.body.accessToken })).status).toBe(401)
    expect(
      (await atrium.request("POST", "/pm/v1/auth/login", { body: { email: alice.email, password: "Lantern-orbit-57-quietly" } })).status
    ).toBe(200)
    const key = (
      await atrium.request("POST", "/hub/v1/api-keys", {
        token: alice.token,
        body: { workspaceId, name: "bot", scopes: ["users:read", "users:write"] }
      })
    ).body.key as string
    expect((await atrium.request("GET", "/pm/v1/users/me", { apiKey: key })).body.id).toBe(alice.userId)
    expect((await atrium.request("POST", "/pm/v1/users/me/password/verify", { apiKey: key, body: { password: "x" } })).status).toBe(403)
    expect((await atrium.request("GET", "/pm/v1/users/me/export", { apiKey: key })).status).toBe(403)
  })

  it("exports the caller's data", async () => {
    const { alice, workspaceId } = await setup()
    await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, {
      token: alice.token,
      body: { name: "Core", members: [{ userId: alice.userId, role: "lead" }] }
    })
    await atrium.request("PATCH", "/pm/v1/users/me/settings", { token: alice.token, body: { theme: "dark" } })
    const exported = await atrium.request("GET", "/pm/v1/users/me/export", { token: alice.token })
    expect(exported.status).toBe(200)
    expect(exported.headers.get("content-disposition")).toContain("attachment")
    expect(exported.body).toMatchObject({
      profile: { id: alice.userId, email: alice.email },
      settings: { theme: "dark" },
      workspaces: [{ id: workspaceId, role: "owner" }],
      teams: [{ name: "Core", role: "lead", workspaceId }],
      notifications: []
    })
  })
})
