/**
 * Builds the Lens evaluation's workspaces on a running Atrium through its own
 * HTTP operations: members (register, login, addMember), recordings from
 * imported transcripts (createRecording, then progress until ready), pm
 * tasks (createSpace, createList, createTask) and wiki pages (createWikiSpace,
 * createPage). Returns each symbolic key's source id.
 */
import {
  latencyMeeting,
  type Meeting,
  MEETINGS,
  PAGES,
  type PageSpec,
  PEOPLE,
  seeded,
  TASKS,
  type TaskSpec,
  transcriptOf
} from "./workspace.ts"

export interface Member {
  readonly name: string
  readonly email: string
  readonly token: string
}

export class Client {
  constructor(readonly baseUrl: string) {}

  async call<A = any>(method: string, path: string, body?: unknown, token?: string): Promise<A> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {})
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 300)}`)
    return (text ? JSON.parse(text) : undefined) as A
  }
}

/** The seven people of the workspace as users; the first (Alice) owns the workspaces and asks the questions. */
export const registerPeople = async (client: Client, run: string, people: ReadonlyArray<string> = PEOPLE): Promise<Array<Member>> => {
  const members: Array<Member> = []
  for (const name of people) {
    const email = `${name.toLowerCase()}-${run}@lens-eval.example`
    await client.call("POST", "/pm/v1/auth/register", { email, password: "correct horse battery", name })
    const login = await client.call("POST", "/pm/v1/auth/login", { email, password: "correct horse battery" })
    members.push({ name, email, token: login.accessToken })
  }
  return members
}

export const createWorkspace = async (client: Client, members: ReadonlyArray<Member>, name: string): Promise<string> => {
  const owner = members[0]!
  const workspace = await client.call("POST", "/pm/v1/workspaces", { name }, owner.token)
  for (const member of members.slice(1)) {
    await client.call("POST", `/pm/v1/workspaces/${workspace.id}/members`, { email: member.email, role: "member" }, owner.token)
  }
  return workspace.id as string
}

/** Polls each recording's progress until it is ready (processing is asynchronous). */
const waitReady = async (client: Client, token: string, recordingIds: ReadonlyArray<number>) => {
  for (const id of recordingIds) {
    for (;;) {
      const progress = await client.call<{ status: string; error: string | null }>(
        "GET",
        `/hub/v1/recordings/${id}/progress`,
        undefined,
        token
      )
      if (progress.status === "ready") break
      if (progress.status === "failed") throw new Error(`recording ${id} failed: ${progress.error}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

/** `count` recordings created `inFlight` at a time; each meeting's call id under its key for the first `meetings`. */
export const createRecordings = async (
  client: Client,
  members: ReadonlyArray<Member>,
  workspaceId: string,
  count: number,
  inFlight: number,
  onProgress: (done: number) => void = () => {},
  meetings: ReadonlyArray<Meeting> = MEETINGS
): Promise<Map<string, string>> => {
  const owner = members[0]!
  const random = seeded(20261124)
  const bodies = Array.from({ length: count }, (_, i) => {
    const meeting =
      i < meetings.length ? { name: meetings[i]!.name, segments: transcriptOf(meetings[i]!, random) } : latencyMeeting(i, random)
    const speakers = new Set(meeting.segments.map((s) => s.speaker))
    return {
      workspaceId,
      name: meeting.name,
      transcript: { format: "segments", segments: meeting.segments },
      attendeeEmails: members.filter((m) => speakers.has(m.name) || m === owner).map((m) => m.email)
    }
  })
  const keys = new Map<string, string>()
  let next = 0
  let done = 0
  const worker = async () => {
    for (;;) {
      const i = next++
      if (i >= bodies.length) return
      const created = await client.call<{ id: number; callId: number }>("POST", "/hub/v1/recordings", bodies[i], owner.token)
      await waitReady(client, owner.token, [created.id])
      if (i < meetings.length) keys.set(meetings[i]!.key, String(created.callId))
      onProgress(++done)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, inFlight) }, worker))
  return keys
}

/** The tasks (one pm space, one list) and the wiki pages (one wiki space); their ids under their keys. */
export const createTasksAndPages = async (
  client: Client,
  members: ReadonlyArray<Member>,
  workspaceId: string,
  wikiKey: string,
  tasks: ReadonlyArray<TaskSpec> = TASKS,
  pages: ReadonlyArray<PageSpec> = PAGES
): Promise<Map<string, string>> => {
  const owner = members[0]!
  const keys = new Map<string, string>()
  const space = await client.call("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Company" }, owner.token)
  const list = await client.call("POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Work" }, owner.token)
  const emailOf = new Map(members.map((m) => [m.name, m.email]))
  for (const spec of tasks) {
    const created = await client.call(
      "POST",
      `/pm/v1/lists/${list.id}/tasks`,
      { name: spec.name, description: spec.description, assigneeEmails: [emailOf.get(spec.assignee)!] },
      owner.token
    )
    keys.set(spec.key, created.id)
  }
  const wiki = await client.call("POST", "/wiki/v1/spaces", { workspaceId, name: "Handbook", key: wikiKey }, owner.token)
  for (const spec of pages) {
    const created = await client.call(
      "POST",
      `/wiki/v1/spaces/${wiki.id}/pages`,
      { title: spec.title, markdown: spec.paragraphs.join("\n\n") },
      owner.token
    )
    keys.set(spec.key, created.id)
  }
  return keys
}
