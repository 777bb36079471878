/** pm "Teams": CRUD and member management by workspace admins, through the PmTeam actor and the ChangeLog. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { addMember, createWorkspace, type LiveAtrium, rawClient, startLiveAtrium, ticketFor } from "./support.ts"

let atrium: LiveAtrium
beforeAll(async () => {
  atrium = await startLiveAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const setup = async () => {
  const owner = await signUp(atrium, "Owner")
  const bob = await signUp(atrium, "Bob")
  const viewer = await signUp(atrium, "Viewer")
  const outsider = await signUp(atrium, "Outsider")
  const workspaceId = await createWorkspace(atrium, owner.token)
  await addMember(atrium, owner.token, workspaceId, bob.email, "member")
  await addMember(atrium, owner.token, workspaceId, viewer.email, "viewer")
  return { owner, bob, viewer, outsider, workspaceId }
}

describe("teams", () => {
  it("creates, lists, renames, manages members and deletes a team", async () => {
    const { owner, bob, viewer, workspaceId } = await setup()
    const created = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, {
      token: owner.token,
      body: {
        name: "Design",
        description: "Product design",
        color: "#7b68ee",
        members: [
          { userId: owner.userId, role: "lead" },
          { userId: bob.userId, role: "member" }
        ]
      }
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      workspaceId,
      name: "Design",
      description: "Product design",
      color: "#7b68ee",
      memberCount: 2,
      createdBy: owner.userId
    })
    expect(created.body.members.map((m: { name: string; role: string }) => [m.name, m.role])).toEqual([
      ["Owner", "lead"],
      ["Bob", "member"]
    ])
    const teamId = created.body.id as string
    await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "Backend" } })
    const listed = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams`, { token: viewer.token })
    expect(listed.body.items.map((t: { name: string }) => t.name)).toEqual(["Backend", "Design"])
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams?q=des`, { token: bob.token })).body.items.map(
        (t: { name: string }) => t.name
      )
    ).toEqual(["Design"])
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams?memberId=${bob.userId}`, { token: bob.token })).body.items.length
    ).toBe(1)
    const renamed = await atrium.request("PATCH", `/pm/v1/teams/${teamId}`, {
      token: owner.token,
      body: { name: "Design Systems", color: null }
    })
    expect(renamed.body).toMatchObject({ name: "Design Systems", color: null, description: "Product design" })
    const members = await atrium.request("POST", `/pm/v1/teams/${teamId}/members`, {
      token: owner.token,
      body: {
        add: [
          { userId: viewer.userId, role: "member" },
          { userId: bob.userId, role: "lead" }
        ],
        remove: [owner.userId]
      }
    })
    expect(members.status).toBe(200)
    expect(members.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [bob.userId, "lead"],
      [viewer.userId, "member"]
    ])
    expect((await atrium.request("DELETE", `/pm/v1/teams/${teamId}`, { token: owner.token })).status).toBe(204)
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token })).body.items.map(
        (t: { name: string }) => t.name
      )
    ).toEqual(["Backend"])
    expect((await atrium.request("PATCH", `/pm/v1/teams/${teamId}`, { token: owner.token, body: { name: "Ghost" } })).status).toBe(404)
    // Every change went through the change log.
    const activity = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/activity?type=team`, { token: owner.token })
    expect(activity.body.items.map((e: { type: string }) => e.type)).toEqual([
      "team.deleted",
      "team.members_changed",
      "team.updated",
      "team.created",
      "team.created"
    ])
  })

  it("enforces roles, membership, unique names and workspace boundaries", async () => {
    const { owner, bob, viewer, outsider, workspaceId } = await setup()
    const teamId = (await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "Ops" } }))
      .body.id as string
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "ops" } })).status
    ).toBe(409)
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: bob.token, body: { name: "Mine" } })).status
    ).toBe(403)
    expect((await atrium.request("PATCH", `/pm/v1/teams/${teamId}`, { token: viewer.token, body: { name: "X" } })).status).toBe(403)
    expect((await atrium.request("DELETE", `/pm/v1/teams/${teamId}`, { token: bob.token })).status).toBe(403)
    // Outsiders cannot see the workspace's teams at all.
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams`, { token: outsider.token })).status).toBe(404)
    expect((await atrium.request("PATCH", `/pm/v1/teams/${teamId}`, { token: outsider.token, body: { name: "X" } })).status).toBe(404)
    const notMember = await atrium.request("POST", `/pm/v1/teams/${teamId}/members`, {
      token: owner.token,
      body: { add: [{ userId: outsider.userId, role: "member" }] }
    })
    expect(notMember.status).toBe(400)
    expect(notMember.body.error.details[0].path).toBe("body.add.0.userId")
    const twice = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, {
      token: owner.token,
      body: {
        name: "Twice",
        members: [
          { userId: bob.userId, role: "member" },
          { userId: bob.userId, role: "lead" }
        ]
      }
    })
    expect(twice.status).toBe(400)
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "Bad", color: "red" } }))
        .status
    ).toBe(400)
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "   " } })).status
    ).toBe(400)
    // API keys: workspaces:write for changes, only in their workspace.
    const key = (
      await atrium.request("POST", "/hub/v1/api-keys", {
        token: owner.token,
        body: { workspaceId, name: "bot", scopes: ["workspaces:read"] }
      })
    ).body.key as string
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/teams`, { apiKey: key })).status).toBe(200)
    expect((await atrium.request("DELETE", `/pm/v1/teams/${teamId}`, { apiKey: key })).status).toBe(403)
  })

  it("streams team changes to workspace subscribers", async () => {
    const { owner, workspaceId } = await setup()
    const client = await rawClient((await ticketFor(atrium, { token: owner.token }, workspaceId)).url)
    await client.subscribe("workspace", workspaceId)
    const created = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, { token: owner.token, body: { name: "Live" } })
    const event = await client.inbox.next((f) => f.type === "team.created")
    expect(event).toMatchObject({
      workspaceId,
      scope: "workspace",
      entityId: created.body.id,
      data: { name: "Live", memberIds: [] },
      actorId: owner.userId
    })
    client.close()
  })
})
