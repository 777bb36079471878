/**
 * The hub's demo workspaces: which workspace a demo currently is (a reset
 * seeds a fresh one under the same demo id), whose it is, what it was seeded
 * with and when it expires. The workspace itself lives in identity, pm and
 * wiki like any other; this is the bookkeeping around it.
 */
import { Effect, Schema } from "effect"
import { query as sqlQuery } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"

export const DemoCounts = Schema.Struct({ lists: Schema.Number, tasks: Schema.Number, pages: Schema.Number, meetings: Schema.Number })

export const DemoWorkspace = Schema.Struct({
  id: Id,
  workspaceId: Id,
  ownerId: Id,
  name: Schema.String,
  contents: DemoCounts,
  resets: Schema.Number,
  createdAt: Timestamp,
  resetAt: Schema.NullOr(Timestamp),
  expiresAt: Timestamp,
  expired: Schema.Boolean
}).annotate({ identifier: "DemoWorkspace", description: "A workspace seeded with the demo content, and its lifetime." })
export type DemoWorkspace = typeof DemoWorkspace.Type

/** Bookkeeping reads and writes: a database failure here is a defect (500), never a domain answer. */
const query = <R extends object>(text: string, params: ReadonlyArray<unknown>) => Effect.orDie(sqlQuery<R>(text, params))

export type DemoOrigin = "user" | "demo_user"

const columns = `id, workspace_id AS "workspaceId", owner_id AS "ownerId", name, contents, resets, created_at AS "createdAt",
  reset_at AS "resetAt", expires_at AS "expiresAt", expires_at <= now() AS expired`

export const recordDemo = (demo: {
  readonly id: string
  readonly workspaceId: string
  readonly ownerId: string
  readonly name: string
  readonly origin: DemoOrigin
  readonly contents: typeof DemoCounts.Type
  readonly expiresAt: string
}) =>
  Effect.flatMap(
    query(
      "INSERT INTO hub_demo_workspaces (id, workspace_id, owner_id, name, origin, contents, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [demo.id, demo.workspaceId, demo.ownerId, demo.name, demo.origin, demo.contents, demo.expiresAt]
    ),
    () => demoById(demo.id)
  )

export const demoById = (id: string) =>
  Effect.flatMap(query<DemoWorkspace>(`SELECT ${columns} FROM hub_demo_workspaces WHERE id = $1 AND deleted_at IS NULL`, [id]), (rows) =>
    rows[0] === undefined ? Effect.fail(reject("not_found", "No such demo workspace")) : Effect.succeed(rows[0])
  )

export const demosOf = (ownerId: string) =>
  query<DemoWorkspace>(`SELECT ${columns} FROM hub_demo_workspaces WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, [
    ownerId
  ])

export const allDemos = (options: { readonly expiredOnly: boolean; readonly limit: number }) =>
  query<DemoWorkspace>(
    `SELECT ${columns} FROM hub_demo_workspaces WHERE deleted_at IS NULL AND (NOT $1 OR expires_at <= now()) ORDER BY created_at, id LIMIT $2`,
    [options.expiredOnly, options.limit]
  )

export const demosCreatedSince = (origin: DemoOrigin, sinceMillis: number) =>
  Effect.map(
    query<{ count: number }>("SELECT count(*)::int AS count FROM hub_demo_workspaces WHERE origin = $1 AND created_at > $2", [
      origin,
      new Date(Date.now() - sinceMillis).toISOString()
    ]),
    (rows) => rows[0]?.count ?? 0
  )

export const markReset = (id: string, workspaceId: string, contents: typeof DemoCounts.Type) =>
  Effect.flatMap(
    query("UPDATE hub_demo_workspaces SET workspace_id = $2, contents = $3, resets = resets + 1, reset_at = now() WHERE id = $1", [
      id,
      workspaceId,
      contents
    ]),
    () => demoById(id)
  )

export const setDemoExpiry = (id: string, expiresAt: string) =>
  Effect.flatMap(query("UPDATE hub_demo_workspaces SET expires_at = $2 WHERE id = $1", [id, expiresAt]), () => demoById(id))

export const markDemoDeleted = (id: string) => query("UPDATE hub_demo_workspaces SET deleted_at = now() WHERE id = $1", [id])
