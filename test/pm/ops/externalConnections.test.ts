/**
 * External Connections: pm's view of the workspace's connections, stored once
 * with the hub's Integrations (the same rows): the token is never shown,
 * internal addresses are refused, the test call reaches a local fake vendor
 * with the stored token, and only admins with a user session change them.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

let atrium: TestServer
let vendor: Server
let vendorUrl: string
let owner: Awaited<ReturnType<typeof signUp>>
let member: Awaited<ReturnType<typeof signUp>>
let workspaceId: string
let apiKey: string
const seenTokens: Array<string> = []

beforeAll(async () => {
  vendor = createServer((req, res) => {
    seenTokens.push(req.headers.authorization ?? "")
    res.writeHead(req.headers.authorization === "Bearer good-token" ? 200 : 401, { "content-type": "application/json" })
    res.end("{}")
  })
  await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve))
  vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/api`
  atrium = await startAtrium()
  owner = await signUp(atrium, "Owner")
  member = await signUp(atrium, "Member")
  workspaceId = (await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } })).body.id
  await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
    token: owner.token,
    body: { email: member.email, role: "member" }
  })
  apiKey = (
    await atrium.request("POST", "/pm/v1/api-keys", { token: owner.token, body: { workspaceId, name: "k", scopes: ["integrations:read"] } })
  ).body.key
}, 60_000)
afterAll(async () => {
  delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
  await atrium?.close()
  await new Promise((resolve) => vendor?.close(resolve))
})

const path = `/pm/v1/workspaces/`
const connect = (token: string, body: Record<string, unknown>) =>
  atrium.request("POST", `${path}${workspaceId}/external-connections`, {
    token,
    body: { vendor: "tracker", name: "Tracker", baseUrl: vendorUrl, token: "good-token", ...body }
  })

describe("external connections", () => {
  it("refuses internal addresses, and members", async () => {
    delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
    const internal = await connect(owner.token, {})
    expect(internal.status).toBe(400)
    expect(internal.body.error.details[0].path).toBe("body.baseUrl")
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    expect((await connect(member.token, {})).status).toBe(403)
  })

  it("connect, list (also through the hub and an API key), test with the stored token, disconnect", async () => {
    const created = await connect(owner.token, { settings: { project: "ENG" } })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ vendor: "tracker", hasToken: true, settings: { project: "ENG" } })
    expect(created.text).not.toContain("good-token")
    const id = created.body.id
    const listed = await atrium.request("GET", `${path}${workspaceId}/external-connections?vendor=tracker`, { apiKey })
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([id])
    expect(
      (await atrium.request("GET", `${path}${workspaceId}/external-connections?vendor=mail`, { token: member.token })).body.items
    ).toEqual([])
    const hub = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations`, { token: owner.token })
    expect(hub.body.items.map((c: { id: string }) => c.id)).toEqual([id])

    const tested = await atrium.request("POST", `${path}${workspaceId}/external-connections/${id}/test`, { token: owner.token })
    expect(tested.body).toEqual({ ok: true, status: 200, problem: null })
    expect(seenTokens.at(-1)).toBe("Bearer good-token")
    const bad = await connect(owner.token, { token: "bad-token", name: "Stale" })
    const refused = await atrium.request("POST", `${path}${workspaceId}/external-connections/${bad.body.id}/test`, { token: owner.token })
    expect(refused.body).toEqual({ ok: false, status: 401, problem: "The system refused the token" })

    expect((await atrium.request("DELETE", `${path}${workspaceId}/external-connections/${id}`, { apiKey })).status).toBe(403)
    expect((await atrium.request("DELETE", `${path}${workspaceId}/external-connections/${id}`, { token: owner.token })).status).toBe(204)
    expect((await atrium.request("GET", `${path}${workspaceId}/external-connections/${id}`, { token: owner.token })).status).toBe(404)
  })

  it("another workspace's member sees nothing", async () => {
    const stranger = await signUp(atrium, "Stranger")
    expect((await atrium.request("GET", `${path}${workspaceId}/external-connections`, { token: stranger.token })).status).toBe(404)
  })
})
