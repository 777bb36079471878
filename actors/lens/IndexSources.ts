/**
 * What the Lens index reads, source by source, each through its service's own
 * reader: recordings through the calls query module and their actors (the
 * transcript once; each user's own version of the notes), tasks through pm's
 * reads and its change log, pages through the wiki's rows, chat documents
 * through the chat-ingestion module. Every source lists its items with a
 * stamp that changes whenever the item does, so the index re-reads only
 * what changed. Passages carry their audience; who may read what is decided
 * per asker (`LensReach.ts`), never here.
 */
import { Effect } from "effect"
import { HubCall } from "../hub/CallActor.ts"
import { calendarPromptsOf } from "../hub/CalendarPrompts.ts"
import { recordingRows } from "../hub/CallRecords.ts"
import { documentWithMessages, summariesOf } from "../hub/chat/ChatDocuments.ts"
import { Workspace } from "../identity/Workspace.ts"
import { lastSeqs, readRange } from "../pm/EventLog.ts"
import { listComments } from "../pm/TaskDiscussion.ts"
import { findTasks } from "../pm/TaskReads.ts"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { IndexedPassage, Passage } from "./Passage.ts"

/** One item of a source (a recording, a task, a page, a chat document) and the stamp of its current state. */
export interface Stamped {
  readonly id: string
  readonly stamp: string
}

export const MAX_RECORDINGS = 2000
export const MAX_TASKS = 5000
export const MAX_PAGES = 5000
export const MAX_COMMENTS = 20
/** Transcript segments are cited one by one, but read with their neighbour for context. */
const SEGMENTS_PER_PASSAGE = 2
/** How many of the turns after a transcript passage it carries (unindexed) for answers said a little later. */
const FOLLOWING_SEGMENTS = 4
/** How much of the next paragraph a page passage carries (unindexed), for the same reason. */
const FOLLOWING_CHARS = 400

const everyone = { _tag: "workspace" } as const

// ── Recordings: transcripts (everyone's) ────────────────────────────────────

/** The workspace's processed recordings, newest first, stamped with their last change (ids and stamps only: asked before every question). */
export const recordingStamps = (workspaceId: string) =>
  query<Stamped>(
    `SELECT id::text AS id, updated_at::text AS stamp FROM hub_recordings
      WHERE workspace_id = $1 AND status = 'ready' ORDER BY id DESC LIMIT ${MAX_RECORDINGS}`,
    [workspaceId]
  )

const recordingsById = (ids: ReadonlyArray<string>) => recordingRows("r.id = ANY($1::bigint[]) AND r.status = 'ready'", [ids.map(Number)])

type RecordingFacts = Effect.Success<ReturnType<typeof recordingsById>>[number]

/** Reads the passages of each of recordings `ids`, a few recordings at a time (a cold index reads them all). */
const perRecording = <E, R>(ids: ReadonlyArray<string>, read: (facts: RecordingFacts) => Effect.Effect<Array<IndexedPassage>, E, R>) =>
  Effect.gen(function* () {
    const recordings = yield* recordingsById(ids)
    const found = yield* Effect.forEach(
      recordings,
      (facts) => Effect.map(read(facts), (passages) => [String(facts.id), passages] as const),
      {
        concurrency: 8
      }
    )
    return new Map(found)
  })

const transcriptOf = (facts: RecordingFacts) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const segments = yield* actors.ask(HubCall, String(facts.id), "transcript", {}).pipe(Effect.orElseSucceed(() => []))
    const passages: Array<IndexedPassage> = []
    for (let i = 0; i < segments.length; i += SEGMENTS_PER_PASSAGE) {
      const group = segments.slice(i, i + SEGMENTS_PER_PASSAGE)
      const next = segments.slice(i + SEGMENTS_PER_PASSAGE, i + FOLLOWING_SEGMENTS + SEGMENTS_PER_PASSAGE)
      const before = segments.slice(Math.max(0, i - SEGMENTS_PER_PASSAGE), i)
      passages.push({
        audience: everyone,
        passage: {
          key: `transcript:${facts.callId}:${i}`,
          sourceType: "transcript",
          sourceId: String(facts.callId),
          title: facts.name,
          text: group.map((s) => `${s.speaker}: ${s.text}`).join(" "),
          span: { startMs: group[0]!.startMs, endMs: group[group.length - 1]!.endMs },
          speaker: group[0]!.speaker,
          at: facts.createdAt,
          ...(next.length > 0 ? { following: next.map((s) => `${s.speaker}: ${s.text}`).join(" ") } : {}),
          ...(before.length > 0 ? { preceding: before.map((s) => `${s.speaker}: ${s.text}`).join(" ") } : {})
        }
      })
    }
    return passages
  })

/** The transcript passages of recordings `ids`, read through their actors. */
export const transcriptPassages = (ids: ReadonlyArray<string>) => perRecording(ids, transcriptOf)

// ── Recordings: one user's own version (summary, key points, notes, action items) ──

/**
 * The processed recordings stamped with everything the user's own version
 * of each is made from: the recording, their notes and prompt, the generated
 * versions, action-item states, their note template, the workspace's prompt.
 */
export const callStamps = (workspaceId: string, userId: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const settings = (yield* Workspace.client(actors)(workspaceId).view({ by: userId })).settings
    const rows = yield* query<Stamped>(
      `SELECT r.id::text AS id, md5(concat_ws('|', r.updated_at::text, p.notes, p.prompt,
              (SELECT max(v.generated_at)::text || count(*) FROM hub_call_versions v WHERE v.recording_id = r.id),
              (SELECT max(s.updated_at)::text || count(*) FROM hub_action_item_states s WHERE s.recording_id = r.id),
              (SELECT t.updated_at::text FROM hub_note_templates t WHERE t.user_id = $2))) AS stamp
         FROM hub_recordings r LEFT JOIN hub_call_participants p ON p.recording_id = r.id AND p.user_id = $2
        WHERE r.workspace_id = $1 AND r.status = 'ready' ORDER BY r.id DESC LIMIT ${MAX_RECORDINGS}`,
      [workspaceId, userId]
    )
    const prompt = settings.customPrompt ?? ""
    return rows.map((row): Stamped => ({ id: row.id, stamp: `${row.stamp}|${prompt}` }))
  })

const ownVersionOf = (userId: string, workspacePrompt: string | null) => (facts: RecordingFacts) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const own = { _tag: "user", userId } as const
    const prompts = yield* calendarPromptsOf(facts.calendarEventId, [userId])
    const view = yield* actors
      .ask(HubCall, String(facts.id), "view", { userId, workspacePrompt, calendarPrompt: prompts.get(userId) ?? null })
      .pipe(Effect.orElseSucceed(() => undefined))
    const passages: Array<IndexedPassage> = []
    if (view === undefined) return passages
    const notes = [view.summary, view.keyPoints.join(" "), view.userNotes ?? ""].filter((t) => t.trim() !== "").join(" ")
    if (notes !== "") {
      passages.push({
        audience: own,
        passage: {
          key: `call:${facts.callId}:notes`,
          sourceType: "call",
          sourceId: String(facts.callId),
          title: facts.name,
          text: notes,
          at: facts.createdAt
        }
      })
    }
    for (const item of view.actionItems) {
      passages.push({
        audience: own,
        passage: {
          key: `call:${facts.callId}:action:${item.id}`,
          sourceType: "call",
          sourceId: String(facts.callId),
          title: `${facts.name}: action item`,
          text: `Action item${item.owner ? ` for ${item.owner}` : ""}: ${item.text}${item.dueDate ? ` (due ${item.dueDate})` : ""}`,
          actionItem: { text: item.text, ...(item.owner ? { owner: item.owner } : {}) },
          at: facts.createdAt
        }
      })
    }
    return passages
  })

/** The user's own version of recordings `ids`: nobody else's summary, notes or action items. */
export const callPassages = (workspaceId: string, userId: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const settings = (yield* Workspace.client(actors)(workspaceId).view({ by: userId })).settings
    return yield* perRecording(ids, ownVersionOf(userId, settings.customPrompt))
  })

// ── Tasks and their comments ────────────────────────────────────────────────

/** The workspace's last pm change seq, and the tasks whose comments changed after `since` ("all" when the log cannot tell). */
export const taskChanges = (workspaceId: string, since: number) =>
  Effect.gen(function* () {
    const seq = (yield* lastSeqs([workspaceId])).get(workspaceId) ?? 0
    if (seq === since) return { seq, commented: new Set<string>() as ReadonlySet<string> | "all" }
    if (since === 0 || seq < since || seq - since > 2000) return { seq, commented: "all" as const }
    const { events } = yield* readRange(workspaceId, since, seq, 2000)
    if (events.length < seq - since) return { seq, commented: "all" as const }
    const commented = new Set<string>()
    for (const event of events) {
      const taskId = event.path.taskId ?? (event.scope === "task" ? event.entityId : undefined)
      if (taskId !== undefined && event.type.startsWith("comment")) commented.add(taskId)
    }
    return { seq, commented: commented as ReadonlySet<string> | "all" }
  })

/** Every live task of the workspace, in any space (who may see which is decided per asker, by its space). */
export const allTasks = (workspaceId: string) =>
  Effect.map(
    findTasks(
      { workspaceId, viewer: { userId: "", admin: true }, includeClosed: true },
      { offset: 0, limit: MAX_TASKS, order: "updated", direction: "desc" }
    ),
    (found) => found.items
  )

export type IndexedTask = Effect.Success<ReturnType<typeof allTasks>>[number]

export const taskDiscussion = (taskId: string) =>
  Effect.map(listComments(taskId, { offset: 0, limit: MAX_COMMENTS }), (comments) => comments.items.map((c) => c.text).join(" "))

export const taskPassage = (task: IndexedTask, discussion: string): IndexedPassage => {
  const owners = task.assignees.map((a) => a.name).join(", ")
  const passage: Passage = {
    key: `task:${task.id}`,
    sourceType: "task",
    sourceId: task.id,
    title: `${task.shortId} ${task.name}`,
    text: [
      `Task ${task.name}. Status: ${task.status.name}.`,
      owners ? `Assigned to ${owners}.` : "Unassigned.",
      task.dueDate ? `Due ${task.dueDate.slice(0, 10)}.` : "",
      task.description,
      discussion ? `Comments: ${discussion}` : ""
    ]
      .filter((part) => part !== "")
      .join(" "),
    ...(owners ? { speaker: owners } : {}),
    at: task.updatedAt
  }
  return { audience: { _tag: "space", spaceId: task.spaceId }, passage }
}

// ── Wiki pages ──────────────────────────────────────────────────────────────

export const pageStamps = (workspaceId: string) =>
  query<Stamped>(
    `SELECT id, updated_at::text AS stamp FROM wiki_pages WHERE workspace_id = $1 ORDER BY updated_at DESC LIMIT ${MAX_PAGES}`,
    [workspaceId]
  )

/** Pages are cut into paragraphs, each cited with its character range in the page's text. */
export const pagePassages = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const rows = yield* query<{ id: string; title: string; content_text: string }>(
      "SELECT id, title, content_text FROM wiki_pages WHERE id = ANY($1::text[])",
      [ids]
    )
    const found = new Map<string, Array<IndexedPassage>>()
    for (const row of rows) {
      const audience = { _tag: "page", pageId: row.id } as const
      const paragraphs = [...row.content_text.matchAll(/[^\n]+/g)].filter((m) => m[0].trim().length > 0)
      const passages: Array<IndexedPassage> = paragraphs.map((m, i) => ({
        audience,
        passage: {
          key: `page:${row.id}:${m.index}`,
          sourceType: "page",
          sourceId: row.id,
          title: row.title,
          text: `${row.title}: ${m[0].trim()}`,
          span: { start: m.index, end: m.index + m[0].length },
          ...(i + 1 < paragraphs.length ? { following: paragraphs[i + 1]![0].trim().slice(0, FOLLOWING_CHARS) } : {}),
          ...(i > 0 ? { preceding: paragraphs[i - 1]![0].trim().slice(-FOLLOWING_CHARS) } : {})
        }
      }))
      if (passages.length === 0) {
        passages.push({
          audience,
          passage: {
            key: `page:${row.id}:title`,
            sourceType: "page",
            sourceId: row.id,
            title: row.title,
            text: row.title,
            span: { start: 0, end: 0 }
          }
        })
      }
      found.set(row.id, passages)
    }
    return found
  })

// ── Chat documents ingested from integrations ───────────────────────────────

export const chatStamps = (workspaceId: string) =>
  Effect.map(summariesOf(workspaceId), (documents): Array<Stamped> => documents.map((d) => ({ id: d.id, stamp: String(d.updatedAt) })))

export const chatPassages = (workspaceId: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const found = new Map<string, Array<IndexedPassage>>()
    for (const id of ids) {
      const document = yield* documentWithMessages(workspaceId, id).pipe(Effect.orElseSucceed(() => undefined))
      if (document === undefined) continue
      found.set(
        id,
        document.messages.map((message) => ({
          audience: everyone,
          passage: {
            key: `integration:${document.id}:${message.position}`,
            sourceType: "integration",
            sourceId: document.id,
            title: document.title,
            text: `${message.author}: ${message.text}`,
            speaker: message.author,
            at: message.sentAt
          }
        }))
      )
    }
    return found
  })
