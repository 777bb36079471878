/**
 * The rest scenario's data: one workspace, built in two steps.
 *
 * 1. Through Atrium's API, as a client would (`structure`): an owner and two
 *    members, the workspace, 2 spaces × 2 lists, a tag and a number custom
 *    field ("Points") per space. Identity and workflows are thereby exactly
 *    what Atrium makes of them.
 * 2. Tasks by SQL bulk insert (`addTasks`, Atrium stopped), into the tables
 *    of persistence/migrations as Atrium's createTask fills them: the next
 *    short ids of the workspace's counter (which is moved past them), the
 *    space's first open status, one assignee each (round robin), creator and
 *    assignee watching, every 2nd task tagged, every 3rd with a Points value,
 *    1 task in 8 named "… golf". Seconds for 100,000 tasks, where the API
 *    would take minutes.
 */
import type { Db } from "../../baselines/conventional/Db.ts"

/** Words in task names: the search's `q` matches one task in WORDS.length. */
export const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"] as const
export const SEARCH_WORD = "golf"
export const SPACES = 2
export const LISTS_PER_SPACE = 2
export const MEMBERS = 3
export const PASSWORD = "bench-password-1234"

export interface Structure {
  readonly email: string
  readonly ownerId: string
  readonly memberIds: ReadonlyArray<string>
  readonly workspaceId: string
  readonly spaceIds: ReadonlyArray<string>
  /** Lists with the space each is in. */
  readonly lists: ReadonlyArray<{ readonly id: string; readonly spaceId: string }>
}

const call = async (url: string, method: string, body?: unknown, token?: string) => {
  const response = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {})
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text === "" ? "null" : text) as Record<string, any>
}

/** `{method, path, body}` against Atrium's API as the bearer of `token`; throws on a non-2xx. */
export const api = (url: string, token?: string) => (method: string, path: string, body?: unknown) => call(url + path, method, body, token)

const uniqueEmail = (who: string) => `bench-${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`

export const login = async (url: string, email: string): Promise<string> => {
  const token = (await call(`${url}/pm/v1/auth/login`, "POST", { email, password: PASSWORD })).accessToken
  if (typeof token !== "string") throw new Error("login answered no accessToken")
  return token
}

const idOf = (body: Record<string, any>, what: string): string => {
  const id = body.id ?? body.user?.id
  if (typeof id !== "string") throw new Error(`${what} answered no id`)
  return id
}

/** Step 1, through the API of the Atrium server at `url`. */
export const structure = async (url: string): Promise<Structure> => {
  const email = uniqueEmail("owner")
  const ownerId = idOf(await call(`${url}/pm/v1/auth/register`, "POST", { email, password: PASSWORD, name: "Bench Owner" }), "register")
  const as = api(url, await login(url, email))
  const workspaceId = idOf(await as("POST", "/pm/v1/workspaces", { name: "bench workspace" }), "POST /pm/v1/workspaces")
  const memberIds = [ownerId]
  for (let i = 1; i < MEMBERS; i++) {
    const member = uniqueEmail(`member${i}`)
    memberIds.push(
      idOf(await call(`${url}/pm/v1/auth/register`, "POST", { email: member, password: PASSWORD, name: `Bench Member ${i}` }), "register")
    )
    await as("POST", `/pm/v1/workspaces/${workspaceId}/members`, { email: member, role: "member" })
  }
  const spaceIds: Array<string> = []
  const lists: Array<{ id: string; spaceId: string }> = []
  for (let s = 0; s < SPACES; s++) {
    const spaceName = `Space ${s + 1}`
    const spaceId = idOf(await as("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: spaceName }), "POST spaces")
    spaceIds.push(spaceId)
    await as("POST", `/pm/v1/spaces/${spaceId}/tags`, { name: "bench", color: "#5f55ee" })
    await as("POST", "/pm/v1/lite/custom-fields", { workspaceId, space: spaceName, name: "Points", type: "number" })
    for (let l = 0; l < LISTS_PER_SPACE; l++) {
      lists.push({
        id: idOf(await as("POST", `/pm/v1/spaces/${spaceId}/lists`, { name: `List ${s + 1}.${l + 1}` }), "POST lists"),
        spaceId
      })
    }
  }
  return { email, ownerId, memberIds, workspaceId, spaceIds, lists }
}

/** Tasks inserted per statement. */
const CHUNK = 10_000

const INSERT_TASKS = `WITH src AS MATERIALIZED (
  SELECT g AS n, gen_random_uuid()::text AS id, k.list_id, k.space_id, k.status, k.tag_id, k.field_id,
         ($5::text[])[1 + g % cardinality($5::text[])] AS assignee,
         now() - (($2::int - g) * interval '1 millisecond') AS at
    FROM generate_series($1::int, $2::int) g
    JOIN unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) WITH ORDINALITY
         AS k(list_id, space_id, status, tag_id, field_id, i) ON k.i = 1 + g % cardinality($6::text[])),
tasks AS (
  INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, description, status, priority, position, created_by, created_at, updated_at)
  SELECT id, $3, space_id, list_id, 'T-' || n, 'Task ' || n || ' ' || ($11::text[])[1 + n % cardinality($11::text[])],
         'Seeded by the bench: task ' || n || '.', status, (ARRAY['low', 'normal', 'high', 'urgent'])[1 + n % 4], n, $4, at, at
    FROM src),
assigned AS (INSERT INTO pm_task_assignees (task_id, user_id, assigned_at) SELECT id, assignee, at FROM src),
watching AS (
  INSERT INTO pm_watchers (scope_type, scope_id, user_id, added_at)
  SELECT 'task', id, $4, at FROM src UNION ALL SELECT 'task', id, assignee, at FROM src WHERE assignee <> $4),
tagged AS (INSERT INTO pm_task_tags (task_id, tag_id, added_at) SELECT id, tag_id, at FROM src WHERE n % 2 = 0),
valued AS (INSERT INTO pm_task_custom_values (task_id, field_id, value, updated_by, updated_at) SELECT id, field_id, to_jsonb(n % 13), $4, at FROM src WHERE n % 3 = 0)
SELECT count(*)::int AS count FROM src`

/** Tasks of the workspace now (not deleted). */
export const taskCount = async (db: Db, workspaceId: string): Promise<number> =>
  Number(
    (
      await db.query<{ count: number }>("SELECT count(*)::int AS count FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL", [
        workspaceId
      ])
    )[0]!.count
  )

/** Step 2: adds tasks until the workspace has `total` (none if it has as many); returns how many were added. */
export const addTasks = async (db: Db, seeded: Structure, total: number): Promise<number> => {
  const missing = total - (await taskCount(db, seeded.workspaceId))
  if (missing <= 0) return 0
  const perList = await db.query<{ list_id: string; space_id: string; status: string; tag_id: string; field_id: string }>(
    `SELECT l.id AS list_id, l.space_id,
            (SELECT st.name FROM pm_statuses st WHERE st.scope_type = 'space' AND st.scope_id = l.space_id ORDER BY st.type <> 'open', st.position LIMIT 1) AS status,
            (SELECT g.id FROM pm_tags g WHERE g.space_id = l.space_id ORDER BY g.created_at LIMIT 1) AS tag_id,
            (SELECT f.id FROM pm_custom_fields f WHERE f.scope_type = 'space' AND f.scope_id = l.space_id ORDER BY f.created_at LIMIT 1) AS field_id
       FROM pm_lists l WHERE l.id = ANY($1::text[]) ORDER BY array_position($1::text[], l.id)`,
    [seeded.lists.map((l) => l.id)]
  )
  if (perList.some((l) => !l.status || !l.tag_id || !l.field_id))
    throw new Error(`a list has no status, tag or field to seed with: ${JSON.stringify(perList)}`)
  const counter = await db.query<{ next: number }>(
    "SELECT COALESCE((SELECT next_value FROM pm_short_id_counters WHERE workspace_id = $1 AND prefix = 'T'), 1) AS next",
    [seeded.workspaceId]
  )
  const first = Number(counter[0]!.next)
  const last = first + missing - 1
  for (let from = first; from <= last; from += CHUNK) {
    await db.transaction((tx) =>
      tx.query(INSERT_TASKS, [
        from,
        Math.min(last, from + CHUNK - 1),
        seeded.workspaceId,
        seeded.ownerId,
        seeded.memberIds,
        perList.map((l) => l.list_id),
        perList.map((l) => l.space_id),
        perList.map((l) => l.status),
        perList.map((l) => l.tag_id),
        perList.map((l) => l.field_id),
        WORDS
      ])
    )
  }
  // Atrium's next createTask continues after the seeded short ids.
  await db.query(
    `INSERT INTO pm_short_id_counters (workspace_id, prefix, next_value) VALUES ($1, 'T', $2)
     ON CONFLICT (workspace_id, prefix) DO UPDATE SET next_value = GREATEST(pm_short_id_counters.next_value, EXCLUDED.next_value)`,
    [seeded.workspaceId, last + 1]
  )
  await db.query("ANALYZE pm_tasks, pm_task_assignees, pm_watchers, pm_task_tags, pm_task_custom_values")
  return missing
}

/** The workspace's task ids, oldest first. */
export const taskIds = async (db: Db, workspaceId: string): Promise<Array<string>> =>
  (
    await db.query<{ id: string }>("SELECT id FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id", [
      workspaceId
    ])
  ).map((r) => r.id)

/** What the updates of `taskIds` left in SQL: their versions and their `task.updated` change-log rows. */
export interface UpdateLedger {
  readonly versions: number
  readonly events: number
  /** Change-log rows whose description repeats another's (an update applied twice). */
  readonly duplicates: number
}

export const updateLedger = async (db: Db, taskIds: ReadonlyArray<string>): Promise<UpdateLedger> => {
  const [row] = await db.query<{ versions: number; events: number; duplicates: number }>(
    `SELECT (SELECT COALESCE(sum(version), 0)::int FROM pm_tasks WHERE id = ANY($1::text[])) AS versions,
            (SELECT count(*)::int FROM pm_events WHERE task_id = ANY($1::text[]) AND type = 'task.updated') AS events,
            (SELECT COALESCE(sum(n - 1), 0)::int FROM (
               SELECT count(*) AS n FROM pm_events
                WHERE task_id = ANY($1::text[]) AND type = 'task.updated' AND data->>'description' IS NOT NULL
                GROUP BY data->>'description') d) AS duplicates`,
    [taskIds]
  )
  return { versions: Number(row!.versions), events: Number(row!.events), duplicates: Number(row!.duplicates) }
}
