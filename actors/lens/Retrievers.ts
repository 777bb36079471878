/**
 * The retrievers: one per source, each reading only what the caller may see
 * (permissions applied before anything is ranked), each through its
 * service's own reader: calls through their actors (the caller's own
 * version), tasks through pm's filtered reads (private spaces), wiki pages
 * through the visibility rules of `VisiblePages`, chat documents through the
 * chat-ingestion query module.
 */
import { Effect } from "effect"
import { HubCall } from "../hub/CallActor.ts"
import { calendarPromptsOf } from "../hub/CalendarPrompts.ts"
import { recordingRows } from "../hub/CallRecords.ts"
import { documentWithMessages, summariesOf } from "../hub/chat/ChatDocuments.ts"
import { type Role, Workspace, atLeast } from "../identity/Workspace.ts"
import { listComments } from "../pm/TaskDiscussion.ts"
import { findTasks } from "../pm/TaskReads.ts"
import { visibleTo } from "../wiki/VisiblePages.ts"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { Passage, SourceType } from "./Passage.ts"

/** The caller as every retriever sees them. */
export interface Asker {
  readonly workspaceId: string
  readonly userId: string
  readonly role: Role
}

const MAX_TASKS = 500
const MAX_CALLS = 200
/** Transcript segments are cited one by one, but read with their neighbour for context. */
const SEGMENTS_PER_PASSAGE = 2

const transcriptsAndCalls = (asker: Asker) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    // The calls service's own query module lists the workspace's recordings; each is then read through its actor.
    const calls = yield* recordingRows(`r.workspace_id = $1 ORDER BY r.id DESC LIMIT ${MAX_CALLS}`, [asker.workspaceId])
    const settings = (yield* actors.ask(Workspace, asker.workspaceId, "view", { by: asker.userId })).settings
    const passages: Array<Passage> = []
    for (const facts of calls) {
      if (facts.status !== "ready") continue
      const id = String(facts.id)
      const segments = yield* actors.ask(HubCall, id, "transcript", {}).pipe(Effect.orElseSucceed(() => []))
      for (let i = 0; i < segments.length; i += SEGMENTS_PER_PASSAGE) {
        const group = segments.slice(i, i + SEGMENTS_PER_PASSAGE)
        passages.push({
          key: `transcript:${facts.callId}:${i}`,
          sourceType: "transcript",
          sourceId: String(facts.callId),
          title: facts.name,
          text: group.map((s) => `${s.speaker}: ${s.text}`).join(" "),
          span: { startMs: group[0]!.startMs, endMs: group[group.length - 1]!.endMs },
          speaker: group[0]!.speaker,
          at: facts.createdAt
        })
      }
      const prompts = yield* calendarPromptsOf(facts.calendarEventId, [asker.userId])
      // The caller's own version: their summary, action items and notes, nobody else's.
      const view = yield* actors
        .ask(HubCall, id, "view", {
          userId: asker.userId,
          workspacePrompt: settings.customPrompt,
          calendarPrompt: prompts.get(asker.userId) ?? null
        })
        .pipe(Effect.orElseSucceed(() => undefined))
      if (view === undefined) continue
      const notes = [view.summary, view.keyPoints.join(" "), view.userNotes ?? ""].filter((t) => t.trim() !== "").join(" ")
      if (notes !== "") {
        passages.push({
          key: `call:${facts.callId}:notes`,
          sourceType: "call",
          sourceId: String(facts.callId),
          title: facts.name,
          text: notes,
          at: facts.createdAt
        })
      }
      for (const item of view.actionItems) {
        passages.push({
          key: `call:${facts.callId}:action:${item.id}`,
          sourceType: "call",
          sourceId: String(facts.callId),
          title: `${facts.name}: action item`,
          text: `Action item${item.owner ? ` for ${item.owner}` : ""}: ${item.text}${item.dueDate ? ` (due ${item.dueDate})` : ""}`,
          actionItem: { text: item.text, ...(item.owner ? { owner: item.owner } : {}) },
          at: facts.createdAt
        })
      }
    }
    return passages
  })

const tasks = (asker: Asker) =>
  Effect.gen(function* () {
    const found = yield* findTasks(
      { workspaceId: asker.workspaceId, viewer: { userId: asker.userId, admin: atLeast(asker.role, "admin") }, includeClosed: true },
      { offset: 0, limit: MAX_TASKS, order: "updated", direction: "desc" }
    )
    const passages: Array<Passage> = []
    for (const task of found.items) {
      const owners = task.assignees.map((a) => a.name).join(", ")
      const comments = yield* listComments(task.id, { offset: 0, limit: 20 })
      const discussion = comments.items.map((c) => c.text).join(" ")
      passages.push({
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
      })
    }
    return passages
  })

/** Pages are cut into paragraphs, each cited with its character range in the page's text. */
const pages = (asker: Asker) =>
  Effect.gen(function* () {
    const visible = visibleTo(asker, 1)
    const rows = yield* query<{ id: string; title: string; content_text: string; updated_at: unknown }>(
      `WITH RECURSIVE ${visible.ctes} SELECT p.id, p.title, p.content_text, p.updated_at FROM visible_pages p ORDER BY p.updated_at DESC LIMIT 1000`,
      [...visible.params]
    )
    const passages: Array<Passage> = []
    for (const row of rows) {
      const text = row.content_text
      const paragraphs = [...text.matchAll(/[^\n]+/g)].filter((m) => m[0].trim().length > 0)
      if (paragraphs.length === 0) {
        passages.push({
          key: `page:${row.id}:title`,
          sourceType: "page",
          sourceId: row.id,
          title: row.title,
          text: row.title,
          span: { start: 0, end: 0 }
        })
      }
      for (const m of paragraphs) {
        passages.push({
          key: `page:${row.id}:${m.index}`,
          sourceType: "page",
          sourceId: row.id,
          title: row.title,
          text: `${row.title}: ${m[0].trim()}`,
          span: { start: m.index, end: m.index + m[0].length }
        })
      }
    }
    return passages
  })

const integrations = (asker: Asker) =>
  Effect.gen(function* () {
    const documents = yield* summariesOf(asker.workspaceId)
    const passages: Array<Passage> = []
    for (const summary of documents.slice(0, 200)) {
      const document = yield* documentWithMessages(asker.workspaceId, summary.id).pipe(Effect.orElseSucceed(() => undefined))
      if (document === undefined) continue
      for (const message of document.messages) {
        passages.push({
          key: `integration:${document.id}:${message.position}`,
          sourceType: "integration",
          sourceId: document.id,
          title: document.title,
          text: `${message.author}: ${message.text}`,
          speaker: message.author,
          at: message.sentAt
        })
      }
    }
    return passages
  })

const retrievers: Record<SourceType, (asker: Asker) => Effect.Effect<ReadonlyArray<Passage>, unknown, any>> = {
  transcript: transcriptsAndCalls,
  call: () => Effect.succeed([]),
  task: tasks,
  page: pages,
  integration: integrations
}

/** The passages of the given sources the asker may see (transcripts and calls are read together). */
export const retrieve = (asker: Asker, sources: ReadonlyArray<SourceType>) => {
  const wanted = new Set<SourceType>(sources.includes("call") ? [...sources, "transcript"] : sources)
  // A source that cannot be read is a defect, not something the asker could fix.
  return Effect.orDie(
    Effect.map(
      Effect.forEach([...wanted], (source) => retrievers[source](asker), { concurrency: "unbounded" }),
      (lists) => lists.flat().filter((p) => sources.includes(p.sourceType))
    )
  )
}
