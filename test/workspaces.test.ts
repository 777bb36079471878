import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestAtrium } from "./support/atrium.ts"

let atrium: TestAtrium
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const createWorkspace = async (token: string, name = "Acme") => {
  const created = await atrium.request("POST", "/pm/v1/workspaces", { token, body: { name } })
  expect(created.status).toBe(201)
  return created.body.id as string
}

describe("workspaces and membership", () => {
  it("one workspace id is valid in the hub and in pm; the creator owns it", async () => {
    const owner = await signUp(atrium, "Owner")
    const id = await createWorkspace(owner.token)
    const hub = await atrium.request("GET", `/hub/v1/workspaces/${id}`, { token: owner.token })
    expect(hub.status).toBe(200)
    expect(hub.body).toMatchObject({ id, name: "Acme", ownerId: owner.userId, role: "owner", memberCount: 1 })
    const renamed = await atrium.request("PATCH", `/pm/v1/workspaces/${id}`, { token: owner.token, body: { name: "Acme Inc" } })
    expect(renamed.body.name).toBe("Acme Inc")
    const listed = await atrium.request("GET", "/hub/v1/workspaces", { token: owner.token })
    expect(listed.body.items.map((w: { id: string }) => w.id)).toContain(id)
  })

  it("adds members by e-mail, enforces roles, hides workspaces from non-members", async () => {
    const owner = await signUp(atrium, "Owner")
    const bob = await signUp(atrium, "Bob")
    const eve = await signUp(atrium, "Eve")
    const id = await createWorkspace(owner.token)
    expect((await atrium.request("GET", `/pm/v1/workspaces/${id}`, { token: eve.token })).status).toBe(404)
    const unknown = await atrium.request("POST", `/pm/v1/workspaces/${id}/members`, {
      token: owner.token,
      body: { email: "ghost@example.com", role: "member" }
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.details[0].path).toBe("body.email")
    const added = await atrium.request("POST", `/pm/v1/workspaces/${id}/members`, {
      token: owner.token,
      body: { email: bob.email, role: "viewer" }
    })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ userId: bob.userId, role: "viewer", email: bob.email })
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${id}/members`, { token: owner.token, body: { email: bob.email, role: "viewer" } }))
        .status
    ).toBe(409)
    // A viewer cannot rename or add members.
    expect((await atrium.request("PATCH", `/pm/v1/workspaces/${id}`, { token: bob.token, body: { name: "Mine" } })).status).toBe(403)
    expect(
      (await atrium.request("POST", `/hub/v1/workspaces/${id}/members`, { token: bob.token, body: { email: eve.email, role: "member" } }))
        .status
    ).toBe(403)
    const promoted = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/members/${bob.userId}`, {
      token: owner.token,
      body: { role: "admin" }
    })
    expect(promoted.body.role).toBe("admin")
    expect(
      (await atrium.request("POST", `/hub/v1/workspaces/${id}/members`, { token: bob.token, body: { email: eve.email, role: "member" } }))
        .status
    ).toBe(201)
    const members = await atrium.request("GET", `/hub/v1/workspaces/${id}/members`, { token: eve.token })
    expect(members.body.items.map((m: { email: string }) => m.email).sort()).toEqual([owner.email, bob.email, eve.email].sort())
    // Nobody removes the owner; a member may leave.
    expect((await atrium.request("DELETE", `/hub/v1/workspaces/${id}/members/${owner.userId}`, { token: bob.token })).status).toBe(409)
    expect((await atrium.request("DELETE", `/hub/v1/workspaces/${id}/members/${eve.userId}`, { token: eve.token })).status).toBe(204)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${id}`, { token: eve.token })).status).toBe(404)
  })

  it("transfers ownership (JWT only): the old owner becomes admin", async () => {
    const owner = await signUp(atrium, "Owner")
    const bob = await signUp(atrium, "Bob")
    const id = await createWorkspace(owner.token)
    await atrium.request("POST", `/pm/v1/workspaces/${id}/members`, { token: owner.token, body: { email: bob.email, role: "member" } })
    expect(
      (await atrium.request("POST", `/hub/v1/workspaces/${id}/ownership`, { token: bob.token, body: { userId: bob.userId } })).status
    ).toBe(403)
    const moved = await atrium.request("POST", `/hub/v1/workspaces/${id}/ownership`, { token: owner.token, body: { userId: bob.userId } })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ ownerId: bob.userId, role: "admin" })
  })
})

describe("workspace settings and API keys", () => {
  const setup = async () => {
    const owner = await signUp(atrium, "Owner")
    const id = await createWorkspace(owner.token)
    const other = await createWorkspace(owner.token, "Other")
    const mint = async (scopes: Array<string>) => {
      const created = await atrium.request("POST", "/hub/v1/api-keys", {
        token: owner.token,
        body: { workspaceId: id, name: "bot", scopes }
      })
      expect(created.status).toBe(201)
      return created.body
    }
    return { owner, id, other, mint }
  }

  it("reads and updates settings; invalid values name the field", async () => {
    const { owner, id } = await setup()
    const initial = await atrium.request("GET", `/hub/v1/workspaces/${id}/settings`, { token: owner.token })
    expect(initial.body).toMatchObject({ preferredIntegrationTarget: null, customPrompt: null })
    const updated = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/settings`, {
      token: owner.token,
      body: { preferredIntegrationTarget: "tracker", customPrompt: "Summarize decisions." }
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ preferredIntegrationTarget: "tracker", customPrompt: "Summarize decisions." })
    const partial = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/settings`, { token: owner.token, body: { customPrompt: null } })
    expect(partial.body).toMatchObject({ preferredIntegrationTarget: "tracker", customPrompt: null })
    const bad = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/settings`, {
      token: owner.token,
      body: { preferredIntegrationTarget: "fax" }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.preferredIntegrationTarget")
    const targets = await atrium.request("GET", `/hub/v1/workspaces/${id}/settings/integration-targets`, { token: owner.token })
    expect(targets.body.items.find((t: { preferred: boolean }) => t.preferred).id).toBe("tracker")
    const reset = await atrium.request("DELETE", `/hub/v1/workspaces/${id}/settings`, { token: owner.token })
    expect(reset.body.preferredIntegrationTarget).toBeNull()
  })

  it("an API key is shown once, stored hashed, and sees only its workspace", async () => {
    const { owner, id, other, mint } = await setup()
    const key = await mint(["workspaces:read", "workspace-settings:read"])
    expect(key.key).toMatch(/^atr_live_/)
    expect(key.key.startsWith(key.prefix)).toBe(true)
    const listed = await atrium.request("GET", `/hub/v1/api-keys?workspaceId=${id}`, { token: owner.token })
    expect(listed.text).not.toContain(key.key)
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(key.id)
    // X-API-Key on the hub, Bearer on pm: the same key.
    const hubList = await atrium.request("GET", "/hub/v1/workspaces", { apiKey: key.key })
    expect(hubList.body.items.map((w: { id: string }) => w.id)).toEqual([id])
    const pmList = await atrium.request("GET", "/pm/v1/workspaces", { token: key.key })
    expect(pmList.body.items.map((w: { id: string }) => w.id)).toEqual([id])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${other}`, { apiKey: key.key })).status).toBe(404)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${other}/settings`, { apiKey: key.key })).status).toBe(404)
    const current = await atrium.request("GET", "/hub/v1/api-keys/current", { apiKey: key.key })
    expect(current.body).toMatchObject({ id: key.id, workspaceId: id, scopes: ["workspaces:read", "workspace-settings:read"] })
    expect((await atrium.request("GET", "/pm/v1/api-keys/current", { token: key.key })).body.id).toBe(key.id)
    expect((await atrium.request("GET", "/hub/v1/api-keys/current", { token: owner.token })).status).toBe(403)
  })

  it("scopes whitelist operations end to end", async () => {
    const { owner, id, mint } = await setup()
    const reader = await mint(["workspace-settings:read"])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${id}/settings`, { apiKey: reader.key })).status).toBe(200)
    const denied = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/settings`, { apiKey: reader.key, body: { customPrompt: "x" } })
    expect(denied.status).toBe(403)
    expect(denied.body.error.message).toContain("workspace-settings:write")
    expect((await atrium.request("GET", "/hub/v1/workspaces", { apiKey: reader.key })).status).toBe(403)
    const writer = await mint(["workspace-settings:write"])
    const written = await atrium.request("PATCH", `/hub/v1/workspaces/${id}/settings`, {
      apiKey: writer.key,
      body: { customPrompt: "From a key" }
    })
    expect(written.status).toBe(200)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${id}/settings`, { token: owner.token })).body.customPrompt).toBe("From a key")
  })

  it("JWT-only operations refuse API keys with 403", async () => {
    const { id, mint } = await setup()
    const key = await mint(Object.keys((await import("../facade/Scopes.ts")).scopes))
    const create = await atrium.request("POST", "/hub/v1/api-keys", {
      apiKey: key.key,
      body: { workspaceId: id, name: "x", scopes: ["workspaces:read"] }
    })
    expect(create.status).toBe(403)
    expect((await atrium.request("POST", "/pm/v1/workspaces", { token: key.key, body: { name: "x" } })).status).toBe(403)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: key.key })).status).toBe(403)
  })

  it("unknown scopes are refused naming the field; revoke and rotate take effect at once", async () => {
    const { owner, id, mint } = await setup()
    const bad = await atrium.request("POST", "/pm/v1/api-keys", {
      token: owner.token,
      body: { workspaceId: id, name: "x", scopes: ["workspaces:read", "root"] }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.scopes.1")
    const key = await mint(["workspaces:read"])
    const rotated = await atrium.request("POST", `/pm/v1/api-keys/${key.id}/rotate`, { token: owner.token })
    expect(rotated.status).toBe(200)
    expect((await atrium.request("GET", "/hub/v1/workspaces", { apiKey: key.key })).status).toBe(401)
    expect((await atrium.request("GET", "/hub/v1/workspaces", { apiKey: rotated.body.key })).status).toBe(200)
    expect((await atrium.request("DELETE", `/hub/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(204)
    expect((await atrium.request("GET", "/hub/v1/workspaces", { apiKey: rotated.body.key })).status).toBe(401)
    expect((await atrium.request("GET", `/hub/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(404)
  })

  it("a key stops working when its creator leaves the workspace; non-admins see only their own keys", async () => {
    const { owner, id } = await setup()
    const bob = await signUp(atrium, "Bob")
    await atrium.request("POST", `/pm/v1/workspaces/${id}/members`, { token: owner.token, body: { email: bob.email, role: "member" } })
    const bobKey = (
      await atrium.request("POST", "/hub/v1/api-keys", {
        token: bob.token,
        body: { workspaceId: id, name: "bob", scopes: ["workspaces:read"] }
      })
    ).body
    await atrium.request("POST", "/hub/v1/api-keys", {
      token: owner.token,
      body: { workspaceId: id, name: "owner", scopes: ["workspaces:read"] }
    })
    const bobsView = await atrium.request("GET", `/hub/v1/api-keys?workspaceId=${id}`, { token: bob.token })
    expect(bobsView.body.items.map((k: { name: string }) => k.name)).toEqual(["bob"])
    const ownersView = await atrium.request("GET", `/hub/v1/api-keys?workspaceId=${id}`, { token: owner.token })
    expect(ownersView.body.items).toHaveLength(2)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${id}`, { apiKey: bobKey.key })).status).toBe(200)
    await atrium.request("DELETE", `/hub/v1/workspaces/${id}/members/${bob.userId}`, { token: owner.token })
    expect((await atrium.request("GET", `/hub/v1/workspaces/${id}`, { apiKey: bobKey.key })).status).toBe(404)
  })
})
