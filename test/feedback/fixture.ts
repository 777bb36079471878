/** A workspace with an owner, an admin, a member, a viewer and an outsider, and helpers for boards and requests. */
import { afterAll, beforeAll, expect } from "vitest"
import { startAtrium, type TestAtrium, type TestServer } from "../support/atrium.ts"
import { team, type Team } from "../wiki/editing/fixture.ts"

export { apiKey, team, type Team, type User } from "../wiki/editing/fixture.ts"

let boards = 0
/** A slug no other test used. */
export const freshSlug = (prefix = "board") => `${prefix}-${Date.now().toString(36)}-${++boards}`

export const createBoard = async (atrium: TestAtrium, t: Team, extra: Record<string, unknown> = {}) => {
  const created = await atrium.request("POST", "/feedback/v1/boards", {
    token: t.owner.token,
    body: { workspaceId: t.workspaceId, name: "Ideas", slug: freshSlug(), visibility: "public", ...extra }
  })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; slug: string; [field: string]: any }
}

export const createRequest = async (atrium: TestAtrium, token: string, boardId: string, body: Record<string, unknown> = {}) => {
  const created = await atrium.request("POST", `/feedback/v1/boards/${boardId}/feature-requests`, {
    token,
    body: { title: "Dark mode", ...body }
  })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; shortId: string; [field: string]: any }
}

export const newTeam = (atrium: TestAtrium): Promise<Team> => team(atrium)

/** A test Atrium and a team in it for a file's tests: started before them, closed after; read its fields inside the tests. */
export const atriumWithTeam = () => {
  const world = {} as { atrium: TestServer; t: Team }
  beforeAll(async () => {
    world.atrium = await startAtrium()
    world.t = await team(world.atrium)
  })
  afterAll(async () => {
    await world.atrium?.close()
  })
  return world
}
