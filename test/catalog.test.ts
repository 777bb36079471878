import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atriumRegistry } from "../facade/operations.ts"
import { services } from "../facade/catalog/Services.ts"
import { signUp, startAtrium, type TestAtrium } from "./support/atrium.ts"

let atrium: TestAtrium
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const countOf = (service: "hub" | "pm" | "wiki" | "feedback", tag: string) =>
  atriumRegistry.ofService(service).filter((op) => op.tag === tag).length

describe("public catalog", () => {
  // The seed's 68 tags and two beyond them: Calendar Sync (a user's synced calendars) and Notification Delivery.
  it("hub tag list: one service, 70 tags, counts computed from the registry", async () => {
    const list = await atrium.request("GET", "/hub/v1/api-catalog")
    expect(list.status).toBe(200)
    expect(Object.keys(list.body).sort()).toEqual(["authentication", "catalogUrl", "hint", "services", "title"])
    expect(list.body.catalogUrl).toBe(`${atrium.origin}/hub/v1/api-catalog`)
    expect(list.body.services).toHaveLength(1)
    const hub = list.body.services[0]
    expect(hub).toMatchObject({ name: "Workspace hub", baseUrl: `${atrium.origin}/hub`, tagCount: 70 })
    expect(hub.tags).toHaveLength(70)
    for (const entry of hub.tags) {
      expect(Object.keys(entry).sort()).toEqual(["description", "operationCount", "tag"])
      expect(entry.operationCount).toBe(countOf("hub", entry.tag))
    }
    expect(hub.tags.find((t: { tag: string }) => t.tag === "Workspace Settings").operationCount).toBe(4)
    expect(hub.tags.find((t: { tag: string }) => t.tag === "Reference Data").operationCount).toBe(4)
  })

  // The seed's 61, 25 and 26 tags, two each for linked work (Task Feedback, Linked Work and their Lite tags), one for wiki live events,
  // one for visitors' comments on public boards.
  it("pm tag list: project management (63), wiki (26), feedback board (29)", async () => {
    const list = await atrium.request("GET", "/pm/v1/api-catalog")
    expect(list.body.services.map((s: { name: string; tagCount: number }) => [s.name, s.tagCount])).toEqual([
      ["Project management", 63],
      ["Wiki", 26],
      ["Feedback board", 29]
    ])
    expect(list.body.services[1].baseUrl).toBe(`${atrium.origin}/wiki`)
    const pm = list.body.services[0]
    expect(pm.tags.find((t: { tag: string }) => t.tag === "Authentication")).toMatchObject({
      description: "User registration, login, token management",
      operationCount: countOf("pm", "Authentication")
    })
  })

  it("detailed tier lists every endpoint with method, path, summary, operationId and tag", async () => {
    const hub = await atrium.request("GET", "/hub/v1/api-catalog/detailed")
    const endpoints = hub.body.services[0].endpoints
    expect(endpoints).toHaveLength(atriumRegistry.ofService("hub").length)
    expect(endpoints).toContainEqual({
      method: "GET",
      path: "/hub/v1/workspaces",
      summary: expect.any(String),
      operationId: "listHubWorkspaces",
      tag: "Workspaces"
    })
    const pm = await atrium.request("GET", "/pm/v1/api-catalog/detailed")
    expect(pm.body.services[0].endpoints.map((e: { operationId: string }) => e.operationId)).toContain("register")
  })

  it("tag detail: parameters, request body, responses with JSON schemas, auth mode, scopes, DTOs", async () => {
    const detail = await atrium.request("GET", `/hub/v1/api-catalog/${encodeURIComponent("Workspace Settings")}`)
    expect(detail.status).toBe(200)
    expect(detail.body.operations).toHaveLength(4)
    const update = detail.body.operations.find((op: { operationId: string }) => op.operationId === "updateWorkspaceSettings")
    expect(update).toMatchObject({
      method: "PATCH",
      path: "/hub/v1/workspaces/{workspaceId}/settings",
      auth: "both",
      scopes: ["workspace-settings:write"]
    })
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: "workspaceId", in: "path", required: true }))
    expect(update.requestBody.schema.properties).toHaveProperty("customPrompt")
    expect(update.responses["200"].schema).toEqual({ $ref: "#/schemas/WorkspaceSettings" })
    expect(detail.body.schemas.WorkspaceSettings.properties).toHaveProperty("preferredIntegrationTarget")
    // Example payloads are not inlined in the detail tier.
    expect(JSON.stringify(detail.body)).not.toContain("Focus on decisions")
  })

  it("the pm catalog answers the two tags named Users with both, each marked with its service", async () => {
    const detail = await atrium.request("GET", "/pm/v1/api-catalog/Users")
    expect(detail.status).toBe(200)
    expect(detail.body.services.map((s: { service: string }) => s.service)).toEqual(["pm", "wiki"])
    for (const op of detail.body.operations) expect(["pm", "wiki"]).toContain(op.service)
  })

  it("examples tier with operationId and name filters; unknown tag and filter answer 404", async () => {
    const all = await atrium.request("GET", `/pm/v1/api-catalog/Authentication/examples`)
    expect(all.body.examples.length).toBeGreaterThanOrEqual(countOf("pm", "Authentication"))
    const one = await atrium.request("GET", `/pm/v1/api-catalog/Authentication/examples?operationId=login`)
    expect(one.body.examples).toHaveLength(1)
    expect(one.body.examples[0]).toMatchObject({
      operationId: "login",
      request: { method: "POST", path: "/pm/v1/auth/login" },
      response: { status: 200 }
    })
    const byName = await atrium.request(
      "GET",
      `/hub/v1/api-catalog/${encodeURIComponent("Workspace Settings")}/examples?name=set-target-and-prompt`
    )
    expect(byName.body.examples).toHaveLength(1)
    expect(byName.body.examples[0].request.path).toMatch(/^\/hub\/v1\/workspaces\/[0-9a-f-]{36}\/settings$/)
    expect((await atrium.request("GET", "/pm/v1/api-catalog/Authentication/examples?operationId=nope")).status).toBe(404)
    const unknown = await atrium.request("GET", "/hub/v1/api-catalog/Nope")
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("not_found")
    expect((await atrium.request("GET", "/hub/v1/api-catalog/Authentication")).status).toBe(404)
  })

  it("is unauthenticated, cacheable by ETag, and free of workspace data", async () => {
    const user = await signUp(atrium, "Secretive")
    const ws = await atrium.request("POST", "/pm/v1/workspaces", { token: user.token, body: { name: "Top Secret Workspace" } })
    for (const path of [
      "/hub/v1/api-catalog",
      "/hub/v1/api-catalog/detailed",
      "/hub/v1/api-catalog/Workspaces",
      "/pm/v1/api-catalog",
      "/pm/v1/api-catalog/Workspaces/examples"
    ]) {
      const response = await atrium.request("GET", path)
      expect(response.status).toBe(200)
      expect(response.text).not.toContain("Top Secret Workspace")
      expect(response.text).not.toContain(ws.body.id)
      expect(response.text).not.toContain(user.email)
      const etag = response.headers.get("etag")
      expect(etag).toBeTruthy()
      const again = await atrium.request("GET", path, { headers: { "if-none-match": etag! } })
      expect(again.status).toBe(304)
    }
  })

  it("serves an OpenAPI 3.1 document per service derived from the registry", async () => {
    for (const service of ["hub", "pm", "wiki", "feedback"] as const) {
      const doc = await atrium.request("GET", `/${service}/v1/openapi.json`)
      expect(doc.status).toBe(200)
      expect(doc.body.openapi).toBe("3.1.0")
      expect(doc.body.tags).toHaveLength(services[service].tags.length)
      const operationIds = Object.values(doc.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
        Object.values(methods).map((op) => op.operationId)
      )
      expect(operationIds.sort()).toEqual(
        atriumRegistry
          .ofService(service)
          .map((op) => op.operationId)
          .sort()
      )
    }
    const hub = await atrium.request("GET", "/hub/v1/openapi.json")
    expect(hub.body.paths["/v1/workspaces/{workspaceId}/settings"].patch["x-scopes"]).toEqual(["workspace-settings:write"])
    expect(hub.body.components.schemas.WorkspaceSettings).toBeDefined()
  })
})
