/**
 * Two Atrium servers on one NATS and one PostgreSQL form one cluster: a user
 * registered through one logs in through the other, a workspace created on
 * one is changed on the other, and when one node drains its actors move to
 * the survivor with their state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestAtrium } from "./support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"
import { checkNats, natsUrl, testPrefix } from "./support/nats.ts"

const ready = (await checkPostgres("cluster (two Atrium nodes)")) && (await checkNats("cluster (two Atrium nodes)"))

describe.skipIf(!ready)("a two-node cluster on NATS + PostgreSQL", () => {
  let database: TestDatabase
  let a: TestAtrium
  let b: TestAtrium
  beforeAll(async () => {
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    a = await startAtrium(shared)
    b = await startAtrium(shared)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await database?.drop()
  })

  it("serves one set of users, workspaces and keys from either node", async () => {
    const owner = await signUp(a, "Owner")
    const viaB = await b.request("POST", "/pm/v1/auth/login", { body: { email: owner.email, password: owner.password } })
    expect(viaB.status).toBe(200)
    const created = await b.request("POST", "/pm/v1/workspaces", { token: viaB.body.accessToken, body: { name: "Clustered" } })
    expect(created.status).toBe(201)
    const id = created.body.id
    // Tokens minted by one node are honoured by the other (one signing key per cluster).
    const updated = await a.request("PATCH", `/hub/v1/workspaces/${id}/settings`, { token: viaB.body.accessToken, body: { customPrompt: "From A" } })
    expect(updated.status).toBe(200)
    expect((await b.request("GET", `/hub/v1/workspaces/${id}/settings`, { token: owner.token })).body.customPrompt).toBe("From A")
    const key = await a.request("POST", "/hub/v1/api-keys", { token: owner.token, body: { workspaceId: id, name: "k", scopes: ["workspaces:read"] } })
    expect((await b.request("GET", "/hub/v1/workspaces", { apiKey: key.body.key })).body.items[0].id).toBe(id)
    // Revocation through B is seen by A at once (the key's actor has one activation in the cluster).
    await b.request("DELETE", `/hub/v1/api-keys/${key.body.id}`, { token: owner.token })
    expect((await a.request("GET", "/hub/v1/workspaces", { apiKey: key.body.key })).status).toBe(401)
  })

  it("keeps serving every workspace after the other node drains", async () => {
    const owner = await signUp(a, "Survivor")
    const ids: Array<string> = []
    for (let i = 0; i < 12; i++) {
      const created = await a.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: `W${i}` } })
      ids.push(created.body.id)
      await b.request("PATCH", `/pm/v1/workspaces/${created.body.id}`, { token: owner.token, body: { name: `Renamed ${i}` } })
    }
    await a.close()
    for (const [i, id] of ids.entries()) {
      const read = await b.request("GET", `/pm/v1/workspaces/${id}`, { token: owner.token })
      expect(read.status).toBe(200)
      expect(read.body.name).toBe(`Renamed ${i}`)
    }
    // Tokens and sessions also survive: the session actors moved too.
    expect((await b.request("GET", "/pm/v1/auth/me", { token: owner.token })).status).toBe(200)
  })
})
