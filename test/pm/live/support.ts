/**
 * Test helpers for pm live updates: an in-process Atrium whose services the
 * test can use directly (to append changes through the real ChangeLog and to
 * seed pm rows), and small raw-WebSocket / Socket.IO clients that collect frames.
 */
import { Effect } from "effect"
import { io as ioClient, type Socket as SioSocket } from "socket.io-client"
import WebSocket from "ws"
import type { AtriumConfig } from "../../../facade/Config.ts"
import { type Change, ChangeLog } from "../../../actors/pm/ChangeLog.ts"
import { query } from "../../../persistence/Sql.ts"
import { startAtrium, type TestAtrium, type TestServer } from "../../support/atrium.ts"

/** The test server (`startAtrium`): its services are reachable through `run`. */
export type LiveAtrium = TestServer

export const startLiveAtrium = (overrides: Partial<AtriumConfig> = {}): Promise<LiveAtrium> => startAtrium(overrides)

let counter = 0
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`

export const createWorkspace = async (atrium: TestAtrium, token: string, name = "Acme") => {
  const created = await atrium.request("POST", "/pm/v1/workspaces", { token, body: { name } })
  if (created.status !== 201) throw new Error(`workspace: ${created.text}`)
  return created.body.id as string
}

export const addMember = async (atrium: TestAtrium, token: string, workspaceId: string, email: string, role = "member") => {
  const added = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, { token, body: { email, role } })
  if (added.status !== 201) throw new Error(`member: ${added.text}`)
}

/** Inserts a space (and optionally its private membership) directly: the tests don't depend on the spaces API. */
export const seedSpace = (
  atrium: LiveAtrium,
  workspaceId: string,
  by: string,
  options: { readonly isPrivate?: boolean; readonly members?: ReadonlyArray<string> } = {}
) =>
  atrium.run(
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      yield* query("INSERT INTO pm_spaces (id, workspace_id, short_id, name, is_private, created_by) VALUES ($1, $2, $3, $4, $5, $6)", [
        id,
        workspaceId,
        `S-${unique()}`,
        "Space",
        options.isPrivate ?? false,
        by
      ])
      for (const userId of options.members ?? []) {
        yield* query("INSERT INTO pm_space_members (space_id, user_id, added_by) VALUES ($1, $2, $3)", [id, userId, by])
      }
      return id
    })
  )

export const seedList = (atrium: LiveAtrium, workspaceId: string, spaceId: string, by: string) =>
  atrium.run(
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      yield* query("INSERT INTO pm_lists (id, workspace_id, space_id, short_id, name, created_by) VALUES ($1, $2, $3, $4, $5, $6)", [
        id,
        workspaceId,
        spaceId,
        `L-${unique()}`,
        "List",
        by
      ])
      return id
    })
  )

export const seedTask = (atrium: LiveAtrium, workspaceId: string, spaceId: string, listId: string, by: string) =>
  atrium.run(
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      yield* query(
        "INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, status, created_by) VALUES ($1, $2, $3, $4, $5, $6, 'to do', $7)",
        [id, workspaceId, spaceId, listId, `T-${unique()}`, "Task", by]
      )
      return id
    })
  )

/** Appends changes through the real ChangeLog (one transaction). */
export const emit = (atrium: LiveAtrium, changes: ReadonlyArray<Change>) =>
  atrium.run(ChangeLog.use((log) => log.transact(Effect.succeed({ result: undefined, changes }))))

export const taskChange = (
  workspaceId: string,
  where: { spaceId: string; listId: string; taskId: string },
  actorId: string,
  data: Record<string, unknown> = {},
  type = "task.updated"
): Change => ({ workspaceId, scope: "task", entityId: where.taskId, path: where, type, data, actorId })

export const ticketFor = async (atrium: TestAtrium, credentials: { token?: string; apiKey?: string }, workspaceId: string) => {
  const issued = await atrium.request("POST", "/pm/v1/ws/ticket", { ...credentials, body: { workspaceId } })
  if (issued.status !== 201) throw new Error(`ticket: ${issued.status} ${issued.text}`)
  return issued.body as { ticket: string; url: string; expiresAt: string; socketIo: { url: string; path: string } }
}

type Frame = Record<string, any>

/** Collects frames (a batch frame's, one by one); `next` waits for the first unseen frame matching a predicate. */
class Inbox {
  readonly frames: Array<Frame> = []
  /** How many frames arrived as batches (`{type: "batch", frames}`), and how many frames they held. */
  batches = 0
  batched = 0
  private cursor = 0
  private waiters: Array<() => void> = []

  push(frame: Frame) {
    if (frame.type === "batch" && Array.isArray(frame.frames)) {
      this.batches++
      this.batched += frame.frames.length
      this.frames.push(...frame.frames)
    } else this.frames.push(frame)
    for (const wake of this.waiters.splice(0)) wake()
  }

  async next(match: (frame: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      for (let i = this.cursor; i < this.frames.length; i++) {
        if (match(this.frames[i]!)) {
          this.cursor = i + 1
          return this.frames[i]!
        }
      }
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`no matching frame within ${timeoutMs} ms; last frames: ${JSON.stringify(this.frames.slice(-3)).slice(0, 600)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  events() {
    return this.frames.filter((f) => typeof f.seq === "number" && typeof f.entityId === "string")
  }
}

export interface RawClient {
  readonly socket: WebSocket
  readonly inbox: Inbox
  readonly closed: Promise<{ code: number; reason: string }>
  readonly send: (frame: unknown) => void
  readonly subscribe: (scope: string, id: string, lastSeq?: number) => Promise<Frame>
  readonly close: () => void
}

export const rawClient = async (url: string): Promise<RawClient> => {
  const socket = new WebSocket(url)
  const inbox = new Inbox()
  socket.on("message", (data) => inbox.push(JSON.parse(String(data))))
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: String(reason) }))
  )
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve())
    socket.once("error", reject)
  })
  const send = (frame: unknown) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame))
  return {
    socket,
    inbox,
    closed,
    send,
    subscribe: (scope, id, lastSeq) => {
      send(lastSeq === undefined ? { type: "subscribe", scope, id } : { type: "subscribe", scope, id, lastSeq })
      return inbox.next((f) => (f.type === "subscribed" || f.type === "error") && f.scope === scope && f.id === id)
    },
    close: () => socket.close()
  }
}

export interface SocketIoClient {
  readonly socket: SioSocket
  readonly inbox: Inbox
  readonly subscribe: (scope: string, id: string, lastSeq?: number) => Promise<Frame>
  readonly close: () => void
}

export const socketIoClient = async (origin: string, ticket: string, batch = false): Promise<SocketIoClient> => {
  const socket = ioClient(origin, {
    path: "/pm/socket.io",
    auth: batch ? { ticket, batch } : { ticket },
    transports: ["websocket"],
    reconnection: false,
    forceNew: true
  })
  const inbox = new Inbox()
  socket.on("event", (frame: Frame) => inbox.push(frame))
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve())
    socket.once("connect_error", (error) => reject(error))
  })
  return {
    socket,
    inbox,
    subscribe: (scope, id, lastSeq) => {
      socket.emit("subscribe", lastSeq === undefined ? { scope, id } : { scope, id, lastSeq })
      return inbox.next((f) => (f.type === "subscribed" || f.type === "error") && f.scope === scope && f.id === id)
    },
    close: () => {
      socket.close()
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
