/**
 * The fault tests' workload and its checks. Writers and readers run
 * concurrently through both nodes while a fault is applied; every request is
 * recorded (node, send time, answer time, status, what it saw) on one clock,
 * so the checks afterwards can tell:
 *
 * - lost or doubled writes: every acknowledged write is present exactly once
 *   (in SQL and through the API of each live node), none at all twice;
 * - overwrites and reads back in time: a state written by X is never seen by
 *   a read (or left as the final state) when an acknowledged write Y began
 *   after X was acknowledged and was itself acknowledged before the read
 *   began (real-time order: X → Y → read);
 * - additions (members, subtasks) acknowledged before a read began are all
 *   in what it saw;
 * - every 503 carries Retry-After, and no request is answered another 5xx.
 *
 * Writes are never retried: a 503 or no answer leaves the outcome unknown,
 * and such a write may be present at most once.
 */
import { writeFileSync } from "node:fs"
import path from "node:path"
import postgres from "postgres"
import { shardOf } from "../../runtime/Sharding.ts"
import type { FaultCluster, NodeProcess } from "../support/faultCluster.ts"
import type { Receipt, Receivers } from "./receivers.ts"

/** The runtime's shard count (NatsOptions' default; server/Atrium.ts does not change it). */
const SHARDS = 64
const now = () => performance.now()
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Answer {
  readonly node: string
  readonly sent: number
  readonly answered: number
  /** 0: no answer (connection failed or the client gave up). */
  readonly status: number
  readonly body: any
  readonly text: string
  readonly retryAfter: string | null
}

/** One HTTP call with a client-side bound (a paused node never answers). */
export const call = async (
  node: NodeProcess,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  timeoutMs = 20_000
): Promise<Answer> => {
  const sent = now()
  const headers: Record<string, string> = {}
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers["content-type"] = "application/json"
  try {
    const response = await fetch(node.origin + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs)
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return {
      node: node.label,
      sent,
      answered: now(),
      status: response.status,
      body: parsed,
      text,
      retryAfter: response.headers.get("retry-after")
    }
  } catch (error) {
    return { node: node.label, sent, answered: now(), status: 0, body: undefined, text: String(error), retryAfter: null }
  }
}

/** A setup call: retried while the cluster hands shards over (503, no answer), bounded; fails on anything but 2xx. */
export const settled = async (node: NodeProcess, method: string, path: string, token: string | undefined, body?: unknown) => {
  let last: Answer | undefined
  for (let attempt = 0; attempt < 240; attempt++) {
    last = await call(node, method, path, token, body)
    if (last.status !== 503 && last.status !== 0) break
    await sleep(250)
  }
  if (last === undefined || last.status >= 300 || last.status === 0) {
    throw new Error(`${method} ${path} on node ${node.label}: ${last?.status} ${last?.text.slice(0, 500)}`)
  }
  return last.body
}

// ------------------------------------------------------------ fixtures ---

export type Owner = "a" | "b" | undefined

/** Which node owns the actor `kind/id` now (from the lease bucket). */
export const ownerOf = async (cluster: FaultCluster, kind: string, id: string): Promise<Owner> => {
  const owner = (await cluster.owners()).get(shardOf(kind, id, SHARDS))
  return owner === undefined ? undefined : cluster.isA(owner) ? "a" : "b"
}

/**
 * Waits (bounded) until node A serves at least `share` of the shards again
 * (after a fault, a rebalance gives them back). Only a preference for the
 * fixture's layout: on a machine too busy for that, the scenario goes on.
 */
export const untilBalanced = async (cluster: FaultCluster, share = 0.25, timeoutMs = 60_000) => {
  const deadline = now() + timeoutMs
  while (now() < deadline) {
    const owners = await cluster.owners()
    const ofA = [...owners.values()].filter(cluster.isA).length
    if (ofA >= SHARDS * share && owners.size === SHARDS) return
    await sleep(250)
  }
  console.warn(`[fault] node A did not get a share of the shards back within ${timeoutMs} ms; going on`)
}

export interface Fixture {
  readonly label: string
  readonly token: string
  readonly workspaceId: string
  readonly listId: string
  /** Its task actor lives on node A; subtasks are created through its list (on B when possible). */
  readonly parentId: string
  /** Tasks updated concurrently: half with their actor on A, half on B. */
  readonly taskIds: ReadonlyArray<string>
  /** Registered users, each added to the workspace once (and, with outboxes, sent one password-reset mail). */
  readonly invitees: ReadonlyArray<{ readonly email: string; readonly id: string }>
  /** The workspace's webhook endpoint (task.created, task.updated), when the scenario checks the outboxes. */
  readonly webhookId: string | undefined
}

/**
 * A fresh workspace for one scenario, laid out so the fault hits node A's
 * actors: the workspace (members) and the parent task live on A, the list
 * on B (so B's subtask writes invalidate A's parent over NATS).
 */
export const makeFixture = async (
  cluster: FaultCluster,
  token: string,
  label: string,
  inviteeCount: number,
  hookUrl?: string
): Promise<Fixture> => {
  const b = cluster.b
  const pick = async <A>(what: string, make: () => Promise<A>, wanted: (a: A) => Promise<boolean>, tries: number): Promise<A> => {
    let made: A | undefined
    for (let i = 0; i < tries; i++) {
      made = await make()
      if (await wanted(made)) return made
    }
    // The layout is a preference (the fault still hits one of the nodes): keep the last one.
    console.warn(`[fault ${label}] no ${what} with the wanted owner after ${tries} tries; using the last one`)
    return made!
  }
  const workspaceId = await pick(
    "workspace on node A",
    async () => (await settled(b, "POST", "/pm/v1/workspaces", token, { name: `Fault ${label}` })).id as string,
    async (id) => (await ownerOf(cluster, "workspace", id)) === "a",
    10
  )
  const spaceId = (await settled(b, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, token, { name: "Space" })).id as string
  const listId = await pick(
    "list on node B",
    async () => (await settled(b, "POST", `/pm/v1/spaces/${spaceId}/lists`, token, { name: "List" })).id as string,
    async (id) => (await ownerOf(cluster, "pmList", id)) === "b",
    10
  )
  const tasks: Array<{ id: string; owner: Owner }> = []
  const need = { parent: 1, a: 2, b: 2 }
  let parentId: string | undefined
  for (let i = 0; i < 40 && (parentId === undefined || need.a + need.b > 0); i++) {
    const id = (await settled(b, "POST", `/pm/v1/lists/${listId}/tasks`, token, { name: `task ${i}`, description: "v0" })).id as string
    const owner = await ownerOf(cluster, "pmTask", id)
    if (parentId === undefined && owner === "a") parentId = id
    else tasks.push({ id, owner })
    if (owner === "a" && id !== parentId && need.a > 0) need.a--
    if (owner === "b" && need.b > 0) need.b--
  }
  parentId ??= tasks.shift()!.id
  const taskIds = [...tasks.filter((t) => t.owner === "a").slice(0, 2), ...tasks.filter((t) => t.owner !== "a").slice(0, 2)].map(
    (t) => t.id
  )
  const invitees: Array<{ email: string; id: string }> = []
  const stamp = `${label.replace(/\W/g, "")}-${Date.now().toString(36)}`
  for (let start = 0; start < inviteeCount; start += 8) {
    const batch = Array.from({ length: Math.min(8, inviteeCount - start) }, (_, k) => start + k)
    const made = await Promise.all(
      batch.map(async (i) => {
        const email = `invitee-${stamp}-${i}@example.com`
        const registered = await settled(b, "POST", "/pm/v1/auth/register", undefined, {
          email,
          password: "correct horse battery",
          name: `Invitee ${i}`
        })
        return { email, id: registered.user.id as string }
      })
    )
    invitees.push(...made)
  }
  // Warm the read models the readers use on both nodes (A's actors are live when the fault starts).
  for (const node of [cluster.a, cluster.b]) {
    await settled(node, "GET", `/pm/v1/workspaces/${workspaceId}/members`, token)
    await settled(node, "GET", `/pm/v1/tasks/${parentId}`, token)
    for (const id of taskIds) await settled(node, "GET", `/pm/v1/tasks/${id}`, token)
  }
  const webhookId =
    hookUrl === undefined
      ? undefined
      : ((
          await settled(b, "POST", `/pm/v1/workspaces/${workspaceId}/webhooks`, token, {
            url: hookUrl,
            eventTypes: ["task.created", "task.updated"]
          })
        ).id as string)
  return { label, token, workspaceId, listId, parentId, taskIds, invitees, webhookId }
}

// ---------------------------------------------------------------- load ---

export type WriteKind = "member" | "subtask" | "update" | "mail"

export interface Write extends Answer {
  readonly kind: WriteKind
  /** The workspace, the parent task, or the updated task. */
  readonly target: string
  /** The member's user id, the subtask's name, the description written, or the address a reset mail goes to. */
  readonly value: string
}

export type ReadKind = "members" | "storedMembers" | "parent" | "task"

export interface Read extends Answer {
  readonly kind: ReadKind
  readonly target: string
}

export interface LoadLog {
  readonly writes: ReadonlyArray<Write>
  readonly reads: ReadonlyArray<Read>
}

const acked = (answer: Answer) => answer.status >= 200 && answer.status < 300

/**
 * Starts the writers and readers: per node, one member writer, one subtask
 * writer, one updater per task, and one reader per read model.
 * `stop` ends every loop (each finishes its request in flight) and answers
 * the log.
 */
export const startLoad = (cluster: FaultCluster, fixture: Fixture, nodes: ReadonlyArray<NodeProcess> = [cluster.a, cluster.b]) => {
  const writes: Array<Write> = []
  const reads: Array<Read> = []
  let running = true
  let nextInvitee = 0
  let nextReset = 0
  let nextSubtask = 0
  let nextVersion = 1
  const token = fixture.token
  const loop = async (node: NodeProcess | undefined, pauseMs: number, step: () => Promise<boolean>) => {
    // A killed node's callers stop: a refused connection answers at once, and would only add noise.
    while (running && node?.alive() !== false) {
      if (!(await step())) return
      await sleep(pauseMs)
    }
  }
  const loops: Array<Promise<void>> = []
  for (const node of nodes) {
    loops.push(
      loop(node, 250, async () => {
        const invitee = fixture.invitees[nextInvitee++]
        if (invitee === undefined) return false
        const answer = await call(node, "POST", `/pm/v1/workspaces/${fixture.workspaceId}/members`, token, {
          email: invitee.email,
          role: "member"
        })
        writes.push({ ...answer, kind: "member", target: fixture.workspaceId, value: invitee.id })
        return true
      }),
      loop(node, 150, async () => {
        const name = `sub-${fixture.label}-${nextSubtask++}`
        const answer = await call(node, "POST", `/pm/v1/tasks/${fixture.parentId}/subtasks`, token, { name })
        writes.push({ ...answer, kind: "subtask", target: fixture.parentId, value: name })
        return true
      }),
      // With outboxes: password resets queue mail (one per invitee; the account allows a few per hour).
      loop(node, 200, async () => {
        const invitee = fixture.webhookId === undefined ? undefined : fixture.invitees[nextReset++]
        if (invitee === undefined) return false
        const answer = await call(node, "POST", "/hub/v1/auth/password-reset", undefined, { email: invitee.email })
        writes.push({ ...answer, kind: "mail", target: "", value: invitee.email })
        return true
      }),
      ...fixture.taskIds.map((taskId) =>
        loop(node, 120, async () => {
          const value = `v${nextVersion++}`
          const answer = await call(node, "PATCH", `/pm/v1/tasks/${taskId}`, token, { description: value })
          writes.push({ ...answer, kind: "update", target: taskId, value })
          return true
        })
      )
    )
    const targets: Array<[ReadKind, string, string]> = [
      ["members", fixture.workspaceId, `/pm/v1/workspaces/${fixture.workspaceId}/members`],
      ["parent", fixture.parentId, `/pm/v1/tasks/${fixture.parentId}`],
      ...fixture.taskIds.map((id): [ReadKind, string, string] => ["task", id, `/pm/v1/tasks/${id}`])
    ]
    // One reader per read model: a read stuck on one (its owner cut off) does not hide what the others show.
    for (const [kind, target, path] of targets) {
      loops.push(
        loop(node, 60, async () => {
          reads.push({ ...(await call(node, "GET", path, token)), kind, target })
          return true
        })
      )
    }
  }
  // The workspace's stored state, read straight from SQL: an acknowledged member must be there from its acknowledgment on.
  const sql = postgres(cluster.database.url, { max: 1, onnotice: () => {} })
  loops.push(
    loop(undefined, 100, async () => {
      const sent = now()
      const rows = await sql<Array<{ members: Array<{ userId: string }> | null }>>`
        select state->'members' as members from actor_state where kind = 'workspace' and id = ${fixture.workspaceId}`
      const body = { items: rows[0]?.members ?? [] }
      reads.push({
        node: "sql",
        sent,
        answered: now(),
        status: 200,
        body,
        text: "",
        retryAfter: null,
        kind: "storedMembers",
        target: fixture.workspaceId
      })
      return true
    })
  )
  return {
    stop: async (): Promise<LoadLog> => {
      running = false
      await Promise.all(loops)
      await sql.end({ timeout: 2 })
      return { writes, reads }
    }
  }
}

// -------------------------------------------------------------- checks ---

/** What a read or a final look saw, for the checks. */
const membersIn = (body: any): Array<string> => (Array.isArray(body?.items) ? body.items.map((m: { userId: string }) => m.userId) : [])

/**
 * Reads that went back in time: for each read of a task, the write that
 * produced what it saw (X) must not precede an acknowledged write (Y) that
 * itself was acknowledged before the read began.
 */
const staleValue = (writes: ReadonlyArray<Write>, target: string, seen: string, readSent: number): Write | undefined => {
  const ofTarget = writes.filter((w) => w.kind === "update" && w.target === target)
  const source = ofTarget.find((w) => w.value === seen)
  // The initial value precedes every write; a write never answered may have landed at any time.
  const sourceAcked =
    seen === "v0" ? Number.NEGATIVE_INFINITY : source !== undefined && acked(source) ? source.answered : Number.POSITIVE_INFINITY
  return ofTarget.find((y) => acked(y) && y.sent > sourceAcked && y.answered < readSent)
}

export interface Verdict {
  readonly violations: ReadonlyArray<string>
  readonly summary: string
}

/**
 * Checks the log and the state after the fault healed: SQL, and the API of
 * each node in `nodes` (the live ones). `healedAt`: when the fault ended, for
 * the recovery figure.
 */
export const verify = async (
  cluster: FaultCluster,
  fixture: Fixture,
  log: LoadLog,
  nodes: ReadonlyArray<NodeProcess>,
  healedAt: number,
  outboxes?: { readonly receivers: Receivers; readonly killedAt?: number }
): Promise<Verdict> => {
  const violations: Array<string> = []
  const { writes, reads } = log
  const all: Array<Answer & { what: string }> = [
    ...writes.map((w) => ({ ...w, what: `${w.kind} ${w.value}` })),
    ...reads.map((r) => ({ ...r, what: `read ${r.kind} ${r.target}` }))
  ]

  // Honest statuses: a 503 says when to retry; nothing else in 5xx.
  for (const answer of all) {
    if (answer.status === 503 && answer.retryAfter === null)
      violations.push(`503 without Retry-After: ${answer.what} on ${answer.node}: ${answer.text.slice(0, 200)}`)
    if (answer.status >= 500 && answer.status !== 503)
      violations.push(`${answer.status} on ${answer.what} through node ${answer.node}: ${answer.text.slice(0, 200)}`)
  }

  // Reads that began after an acknowledged write and did not see it.
  for (const read of reads.filter(acked)) {
    if (read.kind === "members" || read.kind === "storedMembers") {
      const seen = new Set(membersIn(read.body))
      const where = read.kind === "members" ? `members through node ${read.node}` : "the workspace's stored state (SQL)"
      for (const w of writes) {
        if (w.kind === "member" && acked(w) && w.answered < read.sent && !seen.has(w.value)) {
          violations.push(
            `${read.kind === "members" ? "stale read" : "lost write"}: ${where} ${(read.sent - w.answered).toFixed(0)} ms after member ${w.value} was acknowledged (through ${w.node}) did not hold it`
          )
        }
      }
    } else if (read.kind === "parent") {
      const before = writes.filter((w) => w.kind === "subtask" && acked(w) && w.answered < read.sent)
      const count = Number(read.body?.subtaskCount)
      if (count < before.length) {
        const last = before.reduce((x, y) => (y.answered > x.answered ? y : x))
        violations.push(
          `stale read: the parent through node ${read.node} counted ${count} subtasks, ${before.length} were acknowledged before the read began (the last ${(read.sent - last.answered).toFixed(0)} ms before)`
        )
      }
    } else {
      const seen = String(read.body?.description)
      const newer = staleValue(writes, read.target, seen, read.sent)
      if (newer !== undefined) {
        violations.push(
          `stale read: task ${read.target} through node ${read.node} showed "${seen}", ${(read.sent - newer.answered).toFixed(0)} ms after "${newer.value}" (written later) was acknowledged through ${newer.node}`
        )
      }
    }
  }

  // The state after the fault: SQL, then each live node's API.
  let landed = 0
  const sql = postgres(cluster.database.url, { max: 1, onnotice: () => {} })
  try {
    const stored = await sql<Array<{ members: Array<{ userId: string }> }>>`
      select state->'members' as members from actor_state where kind = 'workspace' and id = ${fixture.workspaceId}`
    const storedMembers = (stored[0]?.members ?? []).map((m) => m.userId)
    const subtaskRows = await sql<Array<{ name: string; n: number }>>`
      select name, count(*)::int as n from pm_tasks where parent_task_id = ${fixture.parentId} and deleted_at is null group by name`
    const storedSubtasks = new Map(subtaskRows.map((row) => [row.name, row.n]))
    const descriptions = new Map(
      (await sql<Array<{ id: string; description: string }>>`select id, description from pm_tasks where id = any(${fixture.taskIds})`).map(
        (r) => [r.id, r.description]
      )
    )
    const present = new Set([...storedMembers, ...storedSubtasks.keys()])
    landed = writes.filter((w) => !acked(w) && (w.kind === "member" || w.kind === "subtask") && present.has(w.value)).length
    checkMembers(violations, "SQL", writes, storedMembers)
    checkSubtasks(violations, "SQL", writes, storedSubtasks)
    for (const taskId of fixture.taskIds) checkFinal(violations, "SQL", writes, taskId, descriptions.get(taskId) ?? "")

    for (const node of nodes) {
      const members = membersIn(await settled(node, "GET", `/pm/v1/workspaces/${fixture.workspaceId}/members`, fixture.token))
      checkMembers(violations, `node ${node.label}'s API`, writes, members)
      const listed = (await settled(node, "GET", `/pm/v1/tasks/${fixture.parentId}/subtasks`, fixture.token)).items as Array<{
        name: string
      }>
      const byName = new Map<string, number>()
      for (const item of listed) byName.set(item.name, (byName.get(item.name) ?? 0) + 1)
      checkSubtasks(violations, `node ${node.label}'s API`, writes, byName)
      const parent = await settled(node, "GET", `/pm/v1/tasks/${fixture.parentId}`, fixture.token)
      const storedCount = [...storedSubtasks.values()].reduce((x, y) => x + y, 0)
      if (parent.subtaskCount !== storedCount) {
        violations.push(
          `node ${node.label} shows the parent with ${parent.subtaskCount} subtasks after the fault; SQL holds ${storedCount}`
        )
      }
      for (const taskId of fixture.taskIds) {
        const task = await settled(node, "GET", `/pm/v1/tasks/${taskId}`, fixture.token)
        checkFinal(violations, `node ${node.label}'s API`, writes, taskId, String(task.description))
        if (task.description !== descriptions.get(taskId)) {
          violations.push(
            `node ${node.label} shows task ${taskId} as "${task.description}" after the fault; SQL holds "${descriptions.get(taskId)}"`
          )
        }
      }
    }
    if (outboxes !== undefined && fixture.webhookId !== undefined) {
      const inFlight = { killedAt: outboxes.killedAt, ms: inFlightAtKillMs(writes) }
      await checkWebhooks(violations, sql, fixture, outboxes.receivers.hooks(fixture.label), inFlight)
      await checkMails(violations, writes, outboxes.receivers.mails, inFlight)
    }
  } finally {
    await sql.end({ timeout: 2 })
  }

  // Figures (reported, never asserted).
  // Recovery: until the last failure (503, no answer, 5xx) answered after the fault healed, whenever it was sent.
  const failedAfterHeal = all.filter((a) => a.answered >= healedAt && (a.status === 503 || a.status === 0 || a.status >= 500))
  const recoveryMs = failedAfterHeal.length === 0 ? 0 : Math.max(...failedAfterHeal.map((a) => a.answered)) - healedAt
  const count = (predicate: (a: Answer) => boolean) => all.filter(predicate).length
  const byKind = (["member", "subtask", "update", "mail"] as const)
    .map((kind) => {
      const of = writes.filter((w) => w.kind === kind)
      return `${kind} ${of.filter(acked).length}/${of.length}`
    })
    .join(", ")
  if (process.env.ATRIUM_FAULT_LOG) {
    writeFileSync(
      path.join(process.env.ATRIUM_FAULT_LOG, `${fixture.label}.json`),
      JSON.stringify({ healedAt, fixture, writes, reads, violations }, null, 1)
    )
  }
  const summary = [
    `[fault ${fixture.label}]`,
    `${writes.filter(acked).length}/${writes.length} writes acknowledged (${byKind}),`,
    `${reads.filter(acked).length}/${reads.length} reads answered 2xx;`,
    `503: ${count((a) => a.status === 503)}, other 5xx: ${count((a) => a.status >= 500 && a.status !== 503)}, no answer: ${count((a) => a.status === 0)},`,
    `other: ${count((a) => a.status >= 300 && a.status < 500)};`,
    `failures until ${recoveryMs.toFixed(0)} ms after the fault healed;`,
    `writes not acknowledged that landed anyway: ${landed};`,
    `slowest acknowledged write through B: ${Math.max(0, ...writes.filter((w) => w.node === "b" && acked(w)).map((w) => w.answered - w.sent)).toFixed(0)} ms;`,
    `${violations.length} violations`
  ].join(" ")
  return { violations: condensed(violations), summary }
}

/** Violations of one shape (numbers aside) beyond the first three are counted, not listed. */
const condensed = (violations: ReadonlyArray<string>): ReadonlyArray<string> => {
  const byShape = new Map<string, Array<string>>()
  for (const violation of violations) {
    const shape = violation.replace(/[0-9a-f-]{36}|\d+/g, "#")
    const list = byShape.get(shape) ?? []
    list.push(violation)
    byShape.set(shape, list)
  }
  return [...byShape.values()].flatMap((list) =>
    list.length <= 3 ? list : [...list.slice(0, 3), `… and ${list.length - 3} more like these`]
  )
}

const checkMembers = (violations: Array<string>, where: string, writes: ReadonlyArray<Write>, members: ReadonlyArray<string>) => {
  const counts = new Map<string, number>()
  for (const id of members) counts.set(id, (counts.get(id) ?? 0) + 1)
  for (const [id, n] of counts) if (n > 1) violations.push(`${where}: member ${id} listed ${n} times`)
  for (const w of writes) {
    if (w.kind === "member" && acked(w) && !counts.has(w.value)) {
      violations.push(`${where}: acknowledged member ${w.value} (added through ${w.node}) is missing`)
    }
  }
}

const checkSubtasks = (violations: Array<string>, where: string, writes: ReadonlyArray<Write>, byName: ReadonlyMap<string, number>) => {
  for (const [name, n] of byName) if (n > 1) violations.push(`${where}: subtask ${name} exists ${n} times`)
  for (const w of writes) {
    if (w.kind === "subtask" && acked(w) && !byName.has(w.value)) {
      violations.push(`${where}: acknowledged subtask ${w.value} (created through ${w.node}) is missing`)
    }
  }
}

const checkFinal = (violations: Array<string>, where: string, writes: ReadonlyArray<Write>, taskId: string, seen: string) => {
  const newer = staleValue(writes, taskId, seen, Number.POSITIVE_INFINITY)
  if (newer !== undefined) {
    violations.push(`${where}: task ${taskId} ends as "${seen}", overwriting "${newer.value}" (acknowledged later, through ${newer.node})`)
  }
}

/** The subject of the password-reset mail (facade/hub/accounts/AuthResource.ts). */
const RESET_SUBJECT = "Reset your Atrium password"
/**
 * How long before the kill a delivery may have reached the receiver without the killed node having recorded it as
 * sent yet: a round trip and a commit, which a loaded machine can stretch past a second — at least 3 s, and no less
 * than the slowest acknowledged write of the run (a request and a commit under the same load; 7 s seen on a slow
 * machine running the whole suite).
 */
const inFlightAtKillMs = (writes: ReadonlyArray<Write>) =>
  writes.reduce((most, w) => (acked(w) ? Math.max(most, w.answered - w.sent) : most), 3000)

interface InFlightAtKill {
  readonly killedAt: number | undefined
  readonly ms: number
}

/** One repeat, explained by the kill: the first copy arrived just before it (sent, not yet recorded), the second after. */
const repeatsAllowed = (copies: ReadonlyArray<Receipt>, { killedAt, ms }: InFlightAtKill) =>
  killedAt !== undefined && copies.length === 2 && copies[0]!.at <= killedAt && copies[0]!.at > killedAt - ms && copies[1]!.at > killedAt

/** When each copy arrived, relative to the kill, and the allowance: what tells a kill's repeat from another. */
const copiesAround = (copies: ReadonlyArray<Receipt>, { killedAt, ms }: InFlightAtKill) =>
  killedAt === undefined
    ? "no kill"
    : `copies at ${copies.map((c) => `${(c.at - killedAt).toFixed(0)} ms`).join(", ")} from the kill; allowed from -${ms.toFixed(0)} ms`

const countReceipts = (receipts: ReadonlyArray<Receipt>) => {
  const byKey = new Map<string, Array<Receipt>>()
  for (const receipt of receipts) byKey.set(receipt.key, [...(byKey.get(receipt.key) ?? []), receipt])
  return byKey
}

/** Every row of the fixture's webhook outbox delivered, each received exactly once by its webhook-id. */
const checkWebhooks = async (
  violations: Array<string>,
  sql: postgres.Sql,
  fixture: Fixture,
  receipts: ReadonlyArray<Receipt>,
  inFlight: InFlightAtKill
) => {
  const deadline = now() + 45_000
  let rows: Array<{ id: string; status: string }> = []
  for (;;) {
    rows = await sql<
      Array<{ id: string; status: string }>
    >`select id, status from pm_webhook_outbox where endpoint_id = ${fixture.webhookId!}`
    if (rows.every((row) => row.status === "delivered") || now() > deadline) break
    await sleep(250)
  }
  const undelivered = rows.filter((row) => row.status !== "delivered")
  if (undelivered.length > 0) {
    violations.push(
      `${undelivered.length} of ${rows.length} webhook deliveries not delivered 45 s after the fault (${undelivered.map((r) => r.status).join(", ")})`
    )
  }
  const received = countReceipts(receipts)
  for (const row of rows) {
    const copies = received.get(row.id) ?? []
    if (row.status === "delivered" && copies.length === 0)
      violations.push(`webhook ${row.id} is marked delivered but never reached the receiver`)
    if (copies.length > 1 && !repeatsAllowed(copies, inFlight))
      violations.push(`webhook ${row.id} reached the receiver ${copies.length} times (${copiesAround(copies, inFlight)})`)
  }
  const ids = new Set(rows.map((row) => row.id))
  for (const key of received.keys())
    if (!ids.has(key)) violations.push(`the receiver got webhook-id ${key}, which the outbox does not hold`)
}

/** Each acknowledged password reset mailed exactly once, an unacknowledged one at most once. */
const checkMails = async (
  violations: Array<string>,
  writes: ReadonlyArray<Write>,
  mails: () => ReadonlyArray<Receipt>,
  inFlight: InFlightAtKill
) => {
  const requested = writes.filter((w) => w.kind === "mail")
  const wanted = requested.filter(acked).map((w) => `${w.value} ${RESET_SUBJECT}`)
  const deadline = now() + 30_000
  while (now() < deadline) {
    const keys = new Set(mails().map((m) => m.key))
    if (wanted.every((key) => keys.has(key))) break
    await sleep(250)
  }
  const received = countReceipts(mails())
  for (const w of requested) {
    const copies = received.get(`${w.value} ${RESET_SUBJECT}`) ?? []
    if (acked(w) && copies.length === 0)
      violations.push(`the acknowledged password reset of ${w.value} (through ${w.node}) was never mailed`)
    if (copies.length > 1 && !repeatsAllowed(copies, inFlight))
      violations.push(`the password reset of ${w.value} was mailed ${copies.length} times (${copiesAround(copies, inFlight)})`)
  }
}
