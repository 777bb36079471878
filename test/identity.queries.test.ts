/**
 * The identity read module: what other services learn from the identity
 * actors' persisted state, with the identity rules applied (a deleted
 * workspace has no members, a guest whose access ended is no longer one),
 * and stored state that does not fit its schema treated as a defect.
 */
import { randomUUID } from "node:crypto"
import { type Effect, Exit, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Identity from "../actors/identity/IdentityQueries.ts"
import { query } from "../persistence/Sql.ts"
import { testPglite } from "./support/atrium.ts"

let runtime: ManagedRuntime.ManagedRuntime<any, any>
beforeAll(() => {
  runtime = ManagedRuntime.make(testPglite)
})
afterAll(async () => {
  await runtime?.dispose()
})

const run = <A>(effect: Effect.Effect<A, any, any>) => runtime.runPromise(effect)

const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

const store = (kind: string, id: string, state: object) =>
  run(query("INSERT INTO actor_state (kind, id, state, version, updated_at) VALUES ($1, $2, $3::jsonb, 1, now())", [kind, id, state]))

const account = async (name: string, registered = true) => {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`
  const userId = randomUUID()
  await store("account", email, {
    userId: registered ? userId : null,
    email,
    name,
    passwordHash: "x",
    createdAt: at(-10),
    updatedAt: at(-10),
    failedLogins: 0,
    lockedUntil: null
  })
  return { userId, email, name }
}

const workspace = async (
  ownerId: string,
  extra: {
    members?: Array<{ userId: string; role: string }>
    guests?: object
    exists?: boolean
    deletedAt?: string
    createdAt?: string
  } = {}
) => {
  const id = randomUUID()
  const createdAt = extra.createdAt ?? at(-5)
  await store("workspace", id, {
    id,
    exists: extra.exists ?? true,
    name: `ws ${id.slice(0, 4)}`,
    ownerId,
    members: [{ userId: ownerId, role: "owner", addedAt: createdAt }, ...(extra.members ?? []).map((m) => ({ ...m, addedAt: createdAt }))],
    settings: { preferredIntegrationTarget: null, customPrompt: null, updatedAt: null },
    createdAt,
    updatedAt: createdAt,
    ...(extra.guests ? { guests: extra.guests } : {}),
    ...(extra.deletedAt ? { deletedAt: extra.deletedAt, deletedBy: ownerId } : {}),
    history: [{ seq: 1, type: "workspace.created", at: createdAt, by: ownerId, data: {} }]
  })
  return id
}

describe("identity read module", () => {
  it("finds registered users by id and by e-mail; unregistered accounts and unknown ids are absent", async () => {
    const alice = await account("Alice")
    const ghost = await account("Ghost", false)
    const byId = await run(Identity.usersByIds([alice.userId, randomUUID()]))
    expect([...byId.values()]).toEqual([{ id: alice.userId, email: alice.email, name: "Alice", createdAt: expect.any(String) }])
    const byEmail = await run(Identity.usersByEmails([alice.email, ghost.email]))
    expect([...byEmail.keys()]).toEqual([alice.email])
    expect(await run(Identity.userById(alice.userId))).toMatchObject({ id: alice.userId, name: "Alice" })
    expect(await run(Identity.anyAccount)).toBe(true)
  })

  it("leaves out guests whose access ended and workspaces that are deleted", async () => {
    const owner = await account("Owner")
    const guest = await account("Guest")
    const gone = await account("Gone")
    const id = await workspace(owner.userId, {
      members: [
        { userId: guest.userId, role: "member" },
        { userId: gone.userId, role: "viewer" }
      ],
      guests: { [guest.userId]: { expiresAt: at(3), since: at(-1) }, [gone.userId]: { expiresAt: at(-1), since: at(-3) } }
    })
    const ws = await run(Identity.workspaceById(id))
    expect(ws?.members.map((m) => m.userId)).toEqual([owner.userId, guest.userId])
    expect(Object.keys(ws?.guests ?? {})).toEqual([guest.userId])
    expect([...(await run(Identity.memberRoles(id))).entries()]).toEqual([
      [owner.userId, "owner"],
      [guest.userId, "member"]
    ])
    expect((await run(Identity.workspacesOf(gone.userId))).map((w) => w.id)).toEqual([])
    expect((await run(Identity.workspacesOf(guest.userId))).map((w) => w.id)).toEqual([id])

    const deleted = await workspace(owner.userId, { exists: false, deletedAt: at(-1) })
    expect(await run(Identity.workspaceById(deleted))).toBeUndefined()
    expect((await run(Identity.memberRoles(deleted))).size).toBe(0)
    expect((await run(Identity.workspacesOf(owner.userId))).map((w) => w.id)).toEqual([id])
    expect(await run(Identity.deletedWorkspacesOf(owner.userId))).toEqual([
      { id: deleted, name: expect.any(String), deletedAt: expect.any(String) }
    ])
  })

  it("lists a member's workspaces oldest first", async () => {
    const owner = await account("Owner")
    const newer = await workspace(owner.userId, { createdAt: at(-1) })
    const older = await workspace(owner.userId, { createdAt: at(-2) })
    expect((await run(Identity.workspacesOf(owner.userId))).map((w) => w.id)).toEqual([older, newer])
  })

  it("treats stored state that does not fit its schema as a defect", async () => {
    const owner = await account("Owner")
    const id = await workspace(owner.userId, { members: [{ userId: randomUUID(), role: "boss" }] })
    const exit = await runtime.runPromiseExit(Identity.workspaceById(id))
    expect(Exit.isFailure(exit) && exit.cause.reasons.some((reason) => reason._tag === "Die")).toBe(true)
  })
})
