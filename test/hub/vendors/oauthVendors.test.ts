/**
 * OAuth connect flows and vendor resources against a local fake vendor:
 * the whole authorization-code + PKCE dance (state single-use and bound to
 * the session, JWT only, admins only), tokens encrypted and never shown,
 * refresh before expiry and once on a 401, revocation at the vendor; then
 * destinations, field mapping, push (idempotent per key) and pull for every
 * vendor kind, and the vendor's 429/5xx/timeout answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { apiKey, record, settled, type User, workspaceWith } from "../support/calls.ts"
import { type FakeVendor, startFakeVendor } from "./FakeVendor.ts"

let atrium: TestServer
let fake: FakeVendor
let alice: User
let bob: User
let mallory: User
let workspaceId: string
let otherWorkspaceId: string
const savedEnv = { ...process.env }

const hub = (path: string) => `/hub${path}`

/** The browser's part: follow the consent URL to the fake, which redirects back with code and state. */
const consent = async (authorizeUrl: string) => {
  const response = await fetch(authorizeUrl, { redirect: "manual" })
  const location = new URL(response.headers.get("location")!)
  return { code: location.searchParams.get("code")!, state: location.searchParams.get("state")! }
}

/** Connects `vendor` by the whole OAuth dance as alice; answers the connection. */
const connectByOAuth = async (vendor: string, name: string) => {
  const started = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/${vendor}/authorize`), {
    token: alice.token,
    body: { name }
  })
  expect(started.status, started.text).toBe(200)
  const { code, state } = await consent(started.body.authorizeUrl)
  const done = await atrium.request("POST", hub("/v1/oauth/callback"), { token: alice.token, body: { state, code } })
  expect(done.status, done.text).toBe(201)
  return done.body as { id: string; vendor: string; hasToken: boolean }
}

beforeAll(async () => {
  fake = await startFakeVendor()
  // The fake listens on loopback, which the SSRF guard refuses unless allowed.
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  process.env.HUB_VENDOR_MAX_RETRY_AFTER_SECONDS = "1"
  for (const vendor of ["tracker", "taskapp", "tablebase", "docspace", "pm", "chatapp"]) Object.assign(process.env, fake.env(vendor))
  atrium = await startAtrium()
  alice = await signUp(atrium, "Alice")
  bob = await signUp(atrium, "Bob")
  mallory = await signUp(atrium, "Mallory")
  workspaceId = await workspaceWith(atrium, alice, [bob])
  otherWorkspaceId = await workspaceWith(atrium, mallory, [])
}, 60_000)

afterAll(async () => {
  await atrium?.close()
  await fake?.close()
  process.env = savedEnv
})

describe("OAuth connect", () => {
  it("runs authorization code + PKCE against the fake server; tokens are encrypted and never shown", async () => {
    const started = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/tracker/authorize`), {
      token: alice.token,
      body: { name: "Engineering tracker" }
    })
    expect(started.status).toBe(200)
    const url = new URL(started.body.authorizeUrl)
    expect(url.origin + url.pathname).toBe(`${fake.origin}/oauth/authorize`)
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(url.searchParams.get("state")).toBe(started.body.state)
    expect(url.searchParams.get("client_id")).toBe("atrium-client")

    const { code, state } = await consent(started.body.authorizeUrl)
    // Another session of the same user may not finish it (the state is bound to the session that started it).
    const again = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: alice.email, password: alice.password } })
    const otherSession = await atrium.request("POST", hub("/v1/oauth/callback"), { token: again.body.accessToken, body: { state, code } })
    expect(otherSession.status).toBe(403)
    expect(otherSession.body.error.details[0].path).toBe("body.state")

    const done = await atrium.request("POST", hub("/v1/oauth/callback"), { token: alice.token, body: { state, code } })
    expect(done.status, done.text).toBe(201)
    expect(done.body).toMatchObject({ vendor: "tracker", name: "Engineering tracker", baseUrl: fake.apiUrl, hasToken: true })
    expect(done.text).not.toMatch(/secret/)
    // The token request carried the PKCE verifier (the fake checked it against the challenge).
    const grant = fake.seen.find((request) => request.body?.grant_type === "authorization_code")
    expect(grant?.body.code_verifier).toMatch(/^[\w-]{43,128}$/)

    // Single use: the same state again is refused.
    const replay = await atrium.request("POST", hub("/v1/oauth/callback"), { token: alice.token, body: { state, code } })
    expect(replay.status).toBe(400)
    expect(replay.body.error.details[0]).toEqual({ path: "body.state", message: "state already used" })

    // At rest: ciphertext only.
    const [row] = await atrium.sql(`SELECT token_ciphertext, refresh_ciphertext FROM hub_connections WHERE id = $1`, [done.body.id])
    expect(row!.token_ciphertext).not.toMatch(/secret/)
    expect(row!.refresh_ciphertext).not.toMatch(/secret/)
    expect(row!.refresh_ciphertext).not.toBe("")
    const listed = await atrium.request("GET", hub(`/v1/workspaces/${workspaceId}/integrations`), { token: alice.token })
    expect(listed.text).not.toMatch(/-secret/)
  })

  it("is JWT- and admin-only, refuses unknown states and unconfigured vendors", async () => {
    const key = await apiKey(atrium, alice, workspaceId, ["integrations:read", "integrations:write"])
    const byKey = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/tracker/authorize`), { apiKey: key, body: {} })
    expect(byKey.status).toBe(403)
    const byMember = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/tracker/authorize`), {
      token: bob.token,
      body: {}
    })
    expect(byMember.status).toBe(403)
    const byStranger = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/tracker/authorize`), {
      token: mallory.token,
      body: {}
    })
    expect(byStranger.status).toBe(404)
    const unknown = await atrium.request("POST", hub("/v1/oauth/callback"), { token: alice.token, body: { state: "nope", code: "x" } })
    expect(unknown.status).toBe(400)
    const unconfigured = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/codehost/authorize`), {
      token: alice.token,
      body: {}
    })
    expect(unconfigured.status).toBe(409)
    expect(unconfigured.body.error.message).toMatch(/HUB_OAUTH_CODEHOST_AUTHORIZE_URL/)
    // An admin demoted before finishing cannot finish; the state is not spent (nothing half-applied).
    const role = (value: string) =>
      atrium.request("PATCH", hub(`/v1/workspaces/${workspaceId}/members/${bob.userId}`), { token: alice.token, body: { role: value } })
    expect((await role("admin")).status).toBe(200)
    const started = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/oauth/taskapp/authorize`), {
      token: bob.token,
      body: {}
    })
    expect(started.status).toBe(200)
    const { code, state } = await consent(started.body.authorizeUrl)
    expect((await role("member")).status).toBe(200)
    const demoted = await atrium.request("POST", hub("/v1/oauth/callback"), { token: bob.token, body: { state, code } })
    expect(demoted.status).toBe(403)
    const [pending] = await atrium.sql(`SELECT used_at FROM hub_oauth_states WHERE state = $1`, [state])
    expect(pending!.used_at).toBeNull()
    const install = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/chatapp/oauth/install`), {
      token: alice.token,
      body: {}
    })
    expect(install.status).toBe(200)
    expect(new URL(install.body.authorizeUrl).searchParams.get("scope")).toBe("read write channels:read chat:write")
  })

  it("refreshes a token about to expire before using it, and once on a 401; a withdrawn grant is a 502", async () => {
    fake.setExpiresIn(30) // inside the refresh margin: the next call refreshes first
    const connection = await connectByOAuth("tablebase", "Ops base")
    fake.setExpiresIn(3600)
    const refreshesBefore = fake.seen.filter((request) => request.body?.grant_type === "refresh_token").length
    const tables = await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tablebase/tables?connectionId=${connection.id}`), {
      token: alice.token
    })
    expect(tables.status, tables.text).toBe(200)
    expect(tables.body.items).toEqual([{ id: "tblActions", name: "Action items", key: null }])
    expect(fake.seen.filter((request) => request.body?.grant_type === "refresh_token").length).toBe(refreshesBefore + 1)

    fake.expireAccessTokens()
    const afterExpiry = await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tablebase/tables`), { token: alice.token })
    expect(afterExpiry.status, afterExpiry.text).toBe(200)
    expect(fake.seen.filter((request) => request.body?.grant_type === "refresh_token").length).toBe(refreshesBefore + 2)

    const manual = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/integrations/${connection.id}/oauth/refresh`), {
      token: alice.token
    })
    expect(manual.status).toBe(200)
    expect(Date.parse(manual.body.expiresAt)).toBeGreaterThan(Date.now())

    fake.withdrawGrants()
    const withdrawn = await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tablebase/tables`), { token: alice.token })
    expect(withdrawn.status).toBe(502)
    expect(withdrawn.body.error.message).toMatch(/Ops base/)
    expect(withdrawn.text).not.toMatch(/-secret/)
  })

  it("revokes at the vendor and disconnects", async () => {
    const connection = await connectByOAuth("docspace", "Wiki")
    const revoked = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/integrations/${connection.id}/oauth/revoke`), {
      token: alice.token
    })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ connectionId: connection.id, revokedAtVendor: true })
    expect(fake.revoked.length).toBeGreaterThanOrEqual(2)
    const gone = await atrium.request("GET", hub(`/v1/workspaces/${workspaceId}/integrations/${connection.id}`), { token: alice.token })
    expect(gone.status).toBe(404)
    const [row] = await atrium.sql(`SELECT token_ciphertext, refresh_ciphertext FROM hub_connections WHERE id = $1`, [connection.id])
    expect(row).toEqual({ token_ciphertext: "", refresh_ciphertext: "" })
  })
})

describe("vendor resources", () => {
  let tracker: { id: string }

  beforeAll(async () => {
    tracker = await connectByOAuth("tracker", "Issues")
  })

  it("lists destinations, maps fields, pushes once per key and pulls state back", async () => {
    const projects = await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tracker/projects?connectionId=${tracker.id}`), {
      token: bob.token
    })
    expect(projects.status, projects.text).toBe(200)
    expect(projects.body.items).toEqual([{ id: "10000", key: "ENG", name: "Engineering" }])

    const unmapped = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      token: bob.token,
      body: { connectionId: tracker.id, items: [{ key: "ai-1", title: "Fix login" }] }
    })
    expect(unmapped.status).toBe(409)

    expect(
      (
        await atrium.request("PUT", hub(`/v2/workspaces/${workspaceId}/tracker/mapping`), {
          token: bob.token,
          body: { connectionId: tracker.id, destination: "ENG" }
        })
      ).status
    ).toBe(403)
    const mapped = await atrium.request("PUT", hub(`/v2/workspaces/${workspaceId}/tracker/mapping`), {
      token: alice.token,
      body: { connectionId: tracker.id, destination: "ENG", fields: { title: "summary" } }
    })
    expect(mapped.status, mapped.text).toBe(200)
    expect(mapped.body).toMatchObject({ connectionId: tracker.id, destination: "ENG", fields: { title: "summary" } })

    const push = () =>
      atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
        token: bob.token,
        body: {
          connectionId: tracker.id,
          items: [{ key: "ai-1", title: "Fix login", description: "From the launch call", owner: "bob@example.com", dueDate: "2026-12-01" }]
        }
      })
    const pushed = await push()
    expect(pushed.status, pushed.text).toBe(200)
    expect(pushed.body.items[0]).toMatchObject({ alreadyPushed: false, item: { key: "ai-1", kind: "task", destination: "ENG" } })
    const created = fake.seen.filter((request) => request.method === "POST" && request.path === "/api/issues")
    expect(created).toHaveLength(1)
    expect(created[0]!.body).toEqual({
      project: "ENG",
      summary: "Fix login",
      description: "From the launch call",
      assignee: "bob@example.com",
      dueDate: "2026-12-01"
    })
    const again = await push()
    expect(again.body.items[0]).toMatchObject({ alreadyPushed: true, item: { id: pushed.body.items[0].item.id } })
    expect(fake.seen.filter((request) => request.method === "POST" && request.path === "/api/issues")).toHaveLength(1)

    fake.items.get(pushed.body.items[0].item.externalId)!.status = "done"
    const pulled = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items/pull?connectionId=${tracker.id}`), {
      token: bob.token
    })
    expect(pulled.status, pulled.text).toBe(200)
    expect(pulled.body).toMatchObject({ checked: 1, changed: 1, items: [{ remoteStatus: "done", remoteAssignee: "bob@example.com" }] })
  })

  it("speaks each vendor kind's shape: tasks, records, documents, messages", async () => {
    const cases = [
      { vendor: "taskapp", version: "v1", path: "projects", created: "/api/tasks", field: "name" },
      { vendor: "pm", version: "v1", path: "projects", created: "/api/projects/10000/tasks", field: "name" },
      { vendor: "docspace", version: "v1", path: "spaces", created: "/api/pages", field: "title" },
      { vendor: "chatapp", version: "v1", path: "channels", created: "/api/chat.postMessage", field: "text" }
    ] as const
    for (const test of cases) {
      const connection = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/integrations`), {
        token: alice.token,
        body: { vendor: test.vendor, name: `${test.vendor} by token`, baseUrl: fake.apiUrl, token: fake.grant() }
      })
      expect(connection.status, connection.text).toBe(201)
      const listed = await atrium.request("GET", hub(`/${test.version}/workspaces/${workspaceId}/${test.vendor}/${test.path}`), {
        token: alice.token
      })
      expect(listed.status, `${test.vendor} ${listed.text}`).toBe(200)
      const destination = listed.body.items[0].id
      const pushed = await atrium.request("POST", hub(`/${test.version}/workspaces/${workspaceId}/${test.vendor}/items`), {
        token: alice.token,
        body: { destination, items: [{ key: `note-${test.vendor}`, title: "Launch notes", description: "# Decisions\n- ship" }] }
      })
      expect(pushed.status, `${test.vendor} ${pushed.text}`).toBe(200)
      const sent = fake.seen.filter((request) => request.method === "POST" && request.path === test.created).at(-1)!
      expect(JSON.stringify(sent.body), test.vendor).toContain("Launch notes")
      if (test.vendor === "docspace")
        expect(sent.body).toEqual({ spaceId: "98305", title: "Launch notes", body: { markdown: "# Decisions\n- ship" } })
      if (test.vendor === "chatapp") expect(sent.body).toEqual({ channel: "C024BE91L", text: "Launch notes\n# Decisions\n- ship" })
    }
    const documents = await atrium.request("GET", hub(`/v1/workspaces/${workspaceId}/docspace/items`), { token: alice.token })
    expect(documents.body.items).toMatchObject([{ kind: "document", key: "note-docspace", destination: "98305" }])
  })

  it("waits out a short 429, retries a 5xx on reads, and names the vendor on 429/502/504", async () => {
    const url = hub(`/v2/workspaces/${workspaceId}/tracker/projects?connectionId=${tracker.id}`)
    fake.force({ status: 429, headers: { "retry-after": "0" } })
    expect((await atrium.request("GET", url, { token: alice.token })).status).toBe(200)
    fake.force({ status: 503 })
    expect((await atrium.request("GET", url, { token: alice.token })).status).toBe(200)

    fake.force({ status: 429, headers: { "retry-after": "120" } })
    const limited = await atrium.request("GET", url, { token: alice.token })
    expect(limited.status).toBe(429)
    expect(limited.body.error.message).toMatch(/issue tracker "Issues" is rate limiting; retry after 120 s/)

    fake.force({ status: 500 }, { status: 502 }, { status: 503 })
    const down = await atrium.request("GET", url, { token: alice.token })
    expect(down.status).toBe(502)
    expect(down.body.error.message).toMatch(/issue tracker "Issues" failed \(503\)/)

    process.env.HUB_VENDOR_TIMEOUT_MS = "300"
    fake.force({ hang: true, status: 0 })
    const slow = await atrium.request("GET", url, { token: alice.token })
    delete process.env.HUB_VENDOR_TIMEOUT_MS
    expect(slow.status).toBe(504)
    expect(slow.body.error.message).toMatch(/issue tracker "Issues" did not answer/)
  })

  it("keeps connections to their workspace", async () => {
    const foreign = await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tracker/projects?connectionId=${tracker.id}`), {
      token: mallory.token
    })
    expect(foreign.status).toBe(404)
    const borrowed = await atrium.request("GET", hub(`/v2/workspaces/${otherWorkspaceId}/tracker/projects?connectionId=${tracker.id}`), {
      token: mallory.token
    })
    expect(borrowed.status).toBe(404)
    const none = await atrium.request("GET", hub(`/v2/workspaces/${otherWorkspaceId}/tracker/projects`), { token: mallory.token })
    expect(none.status).toBe(409)
    const wrongKind = await atrium.request("GET", hub(`/v1/workspaces/${workspaceId}/taskapp/projects?connectionId=${tracker.id}`), {
      token: alice.token
    })
    expect(wrongKind.status).toBe(400)
    const reader = await apiKey(atrium, alice, workspaceId, ["integrations:read"])
    expect((await atrium.request("GET", hub(`/v2/workspaces/${workspaceId}/tracker/projects`), { apiKey: reader })).status).toBe(200)
    const push = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      apiKey: reader,
      body: { items: [{ key: "k", title: "t" }] }
    })
    expect(push.status).toBe(403)
  })

  it("pushes a call's action items as tasks and its notes as a document, once", async () => {
    const call = await record(atrium, alice.token, workspaceId)
    expect((await settled(atrium, alice.token, call.id)).status).toBe("ready")
    const items = (await atrium.request("GET", hub(`/v1/calls/by-uuid/${call.callUuid}/action-items`), { token: alice.token })).body.items
    expect(items.length).toBeGreaterThan(0)

    const neither = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), { token: alice.token, body: {} })
    expect(neither.status).toBe(400)
    expect(neither.body.error.details[0].path).toBe("body.items")
    const unknownItem = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      token: alice.token,
      body: { connectionId: tracker.id, callUuid: call.callUuid, actionItemIds: ["ai_nope"] }
    })
    expect(unknownItem.status).toBe(404)
    expect(unknownItem.body.error.details[0].path).toBe("body.actionItemIds[0]")

    const before = fake.seen.filter((request) => request.path === "/api/issues" && request.method === "POST").length
    const pushed = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      token: alice.token,
      body: { connectionId: tracker.id, callUuid: call.callUuid, actionItemIds: [items[0].id] }
    })
    expect(pushed.status, pushed.text).toBe(200)
    expect(pushed.body.items[0].item).toMatchObject({ key: `${call.callUuid}:${items[0].id}`, title: items[0].text })
    const again = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      token: alice.token,
      body: { connectionId: tracker.id, callUuid: call.callUuid, actionItemIds: [items[0].id] }
    })
    expect(again.body.items[0].alreadyPushed).toBe(true)
    expect(fake.seen.filter((request) => request.path === "/api/issues" && request.method === "POST").length).toBe(before + 1)

    const notes = await atrium.request("POST", hub(`/v1/workspaces/${workspaceId}/docspace/items`), {
      token: alice.token,
      body: { destination: "98305", callUuid: call.callUuid }
    })
    expect(notes.status, notes.text).toBe(200)
    expect(notes.body.items[0].item).toMatchObject({ kind: "document", key: `${call.callUuid}:notes`, title: "Launch review" })
    const page = fake.seen.filter((request) => request.path === "/api/pages" && request.method === "POST").at(-1)!
    expect(page.body.body.markdown).toMatch(/## Summary[\s\S]*## Action items\n\n- \[ \] /)

    const foreign = await atrium.request("POST", hub(`/v2/workspaces/${workspaceId}/tracker/items`), {
      token: mallory.token,
      body: { connectionId: tracker.id, callUuid: call.callUuid }
    })
    expect(foreign.status).toBe(404)
  })
})
