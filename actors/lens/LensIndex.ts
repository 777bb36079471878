/**
 * The standing Lens index of one workspace: an actor (id = the workspace id)
 * holding a MiniSearch index of every passage Lens may cite there —
 * transcripts, each asker's own version of their calls, tasks with their
 * comments, wiki pages, ingested chat — built on activation and kept current
 * incrementally: before answering, each source the question needs is checked
 * against its change records (pm's change log seq; the stamps of recordings,
 * pages and chat documents) and only the items that changed are re-read, so a
 * new transcript, task, comment or page edit is answerable by the next
 * question, without a restart.
 *
 * Every passage carries its audience; each question computes the asker's
 * reach from the services' permission rules and hands it to MiniSearch as
 * the search filter, so nothing the asker may not see is ever ranked.
 */
import MiniSearch from "minisearch"
import { type MeetingFilter, meetingMatches } from "./MeetingScope.ts"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Role } from "../identity/Workspace.ts"
import {
  allTasks,
  callPassages,
  callStamps,
  chatPassages,
  chatStamps,
  pagePassages,
  pageStamps,
  recordingStamps,
  type Stamped,
  taskChanges,
  taskDiscussion,
  taskPassage,
  transcriptPassages
} from "./IndexSources.ts"
import { type Asker, reachOf, reaches } from "./LensReach.ts"
import { type IndexedPassage, Passage, SourceType } from "./Passage.ts"
import { type IndexedDocument, indexOptions, rankIn, terms } from "./Ranking.ts"
import { inflects, specificityAmong } from "./Specificity.ts"

interface HeldItem {
  readonly stamp: string
  readonly docs: ReadonlyArray<number>
}

/** The in-memory index of one workspace. Slots: "transcript", "task", "page", "integration", and "call:<userId>" per asker. */
export class WorkspaceIndex {
  readonly search = new MiniSearch<IndexedDocument>(indexOptions)
  readonly docs = new Map<number, IndexedPassage>()
  private readonly slots = new Map<string, Map<string, HeldItem>>()
  /** Which documents hold each term: how specific a question's words are among what an asker may read. */
  private readonly postings = new Map<string, Set<number>>()
  private nextId = 1
  /** pm's change-log seq the tasks were read at; undefined before the first read. */
  taskSeq: number | undefined
  readonly discussions = new Map<string, string>()

  constructor(readonly workspaceId: string) {}

  slot(name: string): ReadonlyMap<string, HeldItem> {
    return this.slots.get(name) ?? new Map()
  }

  /** Replaces the slot's items: those listed keep their order, unlisted ones leave the index. */
  replace(name: string, listed: ReadonlyArray<Stamped>, fresh: ReadonlyMap<string, ReadonlyArray<IndexedPassage>>) {
    const held = this.slots.get(name) ?? new Map<string, HeldItem>()
    const next = new Map<string, HeldItem>()
    for (const { id, stamp } of listed) {
      const previous = held.get(id)
      const passages = fresh.get(id)
      if (passages === undefined && previous !== undefined) {
        next.set(id, previous)
        held.delete(id)
        continue
      }
      if (previous !== undefined) this.discard(previous)
      held.delete(id)
      next.set(id, { stamp, docs: (passages ?? []).map((p) => this.add(p)) })
    }
    for (const gone of held.values()) this.discard(gone)
    this.slots.set(name, next)
  }

  private add(indexed: IndexedPassage): number {
    const id = this.nextId++
    this.docs.set(id, indexed)
    this.search.add({ id, title: indexed.passage.title, text: indexed.passage.text })
    for (const term of termsOf(indexed)) {
      const holders = this.postings.get(term)
      if (holders === undefined) this.postings.set(term, new Set([id]))
      else holders.add(id)
    }
    return id
  }

  private discard(item: HeldItem) {
    for (const id of item.docs) {
      const indexed = this.docs.get(id)
      if (indexed === undefined) continue
      for (const term of termsOf(indexed)) {
        const holders = this.postings.get(term)
        holders?.delete(id)
        if (holders?.size === 0) this.postings.delete(term)
      }
      this.docs.delete(id)
      this.search.discard(id)
    }
  }

  /** How many admitted documents hold `term` or an inflection of it. */
  containing(term: string, admit: (id: number) => boolean): number {
    const holding = new Set<number>()
    for (const [word, holders] of this.postings) {
      if (word !== term && !inflects(word, term)) continue
      for (const id of holders) if (admit(id)) holding.add(id)
    }
    return holding.size
  }

  /** Every passage of the slots, in the order their sources list them. */
  *passagesOf(names: ReadonlyArray<string>): Generator<[number, IndexedPassage]> {
    for (const name of names) {
      for (const item of this.slot(name).values()) {
        for (const id of item.docs) yield [id, this.docs.get(id)!]
      }
    }
  }
}

const termsOf = (indexed: IndexedPassage) => new Set(terms(`${indexed.passage.title} ${indexed.passage.text}`))

const changedOf = (index: WorkspaceIndex, name: string, listed: ReadonlyArray<Stamped>) => {
  const held = index.slot(name)
  return listed.filter((item) => held.get(item.id)?.stamp !== item.stamp).map((item) => item.id)
}

/** Brings one slot up to date: lists its items, re-reads those whose stamp changed, drops the gone. */
const syncSlot = <E, R>(
  index: WorkspaceIndex,
  name: string,
  listing: Effect.Effect<ReadonlyArray<Stamped>, E, R>,
  read: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<IndexedPassage>>, E, R>
) =>
  Effect.gen(function* () {
    const listed = yield* listing
    const changed = changedOf(index, name, listed)
    const fresh = changed.length > 0 ? yield* read(changed) : new Map<string, ReadonlyArray<IndexedPassage>>()
    // An item listed as changed but not read back (deleted meanwhile) is indexed empty until its stamp moves again.
    const complete = new Map(changed.map((id) => [id, fresh.get(id) ?? []] as const))
    index.replace(name, listed, complete)
  })

/** Tasks: re-listed when pm's change log moved; comments re-read only for the tasks the log names. */
const syncTasks = (index: WorkspaceIndex) =>
  Effect.gen(function* () {
    const { seq, commented } = yield* taskChanges(index.workspaceId, index.taskSeq ?? 0)
    if (index.taskSeq !== undefined && seq === index.taskSeq) return
    const tasks = yield* allTasks(index.workspaceId)
    const stale = tasks.filter((task) => commented === "all" || commented.has(task.id) || !index.discussions.has(task.id))
    const read = yield* Effect.forEach(stale, (task) => Effect.map(taskDiscussion(task.id), (text) => [task.id, text] as const), {
      concurrency: 4
    })
    for (const [id, text] of read) index.discussions.set(id, text)
    const live = new Set(tasks.map((task) => task.id))
    for (const id of index.discussions.keys()) if (!live.has(id)) index.discussions.delete(id)
    const passages = tasks.map((task) => taskPassage(task, index.discussions.get(task.id) ?? ""))
    const listed = passages.map((p) => ({
      id: p.passage.sourceId,
      stamp: `${p.audience._tag === "space" ? p.audience.spaceId : ""}|${p.passage.title}|${p.passage.text}`
    }))
    const changed = new Set(changedOf(index, "task", listed))
    index.replace("task", listed, new Map(passages.filter((p) => changed.has(p.passage.sourceId)).map((p) => [p.passage.sourceId, [p]])))
    index.taskSeq = seq
  })

const slotsFor = (sources: ReadonlySet<SourceType>, userId: string) => [
  ...(sources.has("transcript") ? ["transcript"] : []),
  ...(sources.has("call") ? [`call:${userId}`] : []),
  ...(sources.has("task") ? ["task"] : []),
  ...(sources.has("page") ? ["page"] : []),
  ...(sources.has("integration") ? ["integration"] : [])
]

/** Brings the slots the sources need up to date (each independently). */
const refresh = (index: WorkspaceIndex, sources: ReadonlySet<SourceType>, userId: string) => {
  const ws = index.workspaceId
  const syncs = [
    sources.has("transcript") ? syncSlot(index, "transcript", recordingStamps(ws), transcriptPassages) : undefined,
    sources.has("call") ? syncSlot(index, `call:${userId}`, callStamps(ws, userId), (ids) => callPassages(ws, userId, ids)) : undefined,
    sources.has("task") ? syncTasks(index) : undefined,
    sources.has("page") ? syncSlot(index, "page", pageStamps(ws), pagePassages) : undefined,
    sources.has("integration") ? syncSlot(index, "integration", chatStamps(ws), (ids) => chatPassages(ws, ids)) : undefined
  ].filter((sync) => sync !== undefined)
  return Effect.all(syncs, { concurrency: "unbounded", discard: true })
}

const WORKSPACE_WIDE = new Set<SourceType>(["transcript", "task", "page", "integration"])

const AskerFields = {
  userId: Schema.String,
  role: Role,
  sources: Schema.Array(SourceType),
  /** The question names one meeting (`MeetingScope.ts`): only that meeting's passages are read. */
  meeting: Schema.optionalKey(
    Schema.Struct({
      terms: Schema.Array(Schema.String),
      day: Schema.optionalKey(Schema.Struct({ name: Schema.String, date: Schema.String, timeZone: Schema.String }))
    })
  )
}

export const RankedPassage = Schema.Struct({ passage: Passage, score: Schema.Number, coverage: Schema.Number })

const askerOf = (workspaceId: string, payload: { readonly userId: string; readonly role: Asker["role"] }): Asker => ({
  workspaceId,
  userId: payload.userId,
  role: payload.role
})

/** Readies the index for an asker: the slots brought up to date, and the filter of what they may read. */
const prepare = (
  index: WorkspaceIndex,
  payload: {
    readonly userId: string
    readonly role: Asker["role"]
    readonly sources: ReadonlyArray<SourceType>
    readonly meeting?: MeetingFilter
  }
) =>
  Effect.gen(function* () {
    const sources = new Set(payload.sources)
    const [, reach] = yield* Effect.all([refresh(index, sources, payload.userId), reachOf(askerOf(index.workspaceId, payload), sources)], {
      concurrency: "unbounded"
    })
    const slots = slotsFor(sources, payload.userId)
    const readable = (id: number) => {
      const doc = index.docs.get(id)
      return doc !== undefined && sources.has(doc.passage.sourceType) && reaches(reach, doc.audience)
    }
    const meeting = payload.meeting === undefined ? undefined : meetingSources(index, slots, readable, payload.meeting)
    // A named meeting that matches no title restricts nothing: the words were not a meeting's name after all.
    const admit =
      meeting === undefined || meeting.size === 0
        ? readable
        : (id: number) => readable(id) && meeting.has(index.docs.get(id)!.passage.sourceId)
    return { slots, admit, readable }
  })

/** The meetings (transcripts and call notes, by source id) whose title carries every term of the named meeting. */
const meetingSources = (
  index: WorkspaceIndex,
  slots: ReadonlyArray<string>,
  readable: (id: number) => boolean,
  named: MeetingFilter
): ReadonlySet<string> => {
  const found = new Set<string>()
  for (const [id, doc] of index.passagesOf(slots)) {
    const { passage } = doc
    if ((passage.sourceType === "transcript" || passage.sourceType === "call") && !found.has(passage.sourceId)) {
      if (readable(id) && meetingMatches(passage.title, passage.at, named)) found.add(passage.sourceId)
    }
  }
  return found
}

// A source that cannot be read is a defect, not something the asker could fix.
const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.orDie(effect)

export const LensIndex = Actor<WorkspaceIndex>()({
  kind: "lensIndex",
  state: Schema.declare((u): u is WorkspaceIndex => u instanceof WorkspaceIndex),
  initial: (id) => new WorkspaceIndex(id),
  // Built on activation from the workspace-wide sources; each asker's own call versions join on their first question.
  rebuild: (id) =>
    Effect.gen(function* () {
      const index = new WorkspaceIndex(id)
      yield* refresh(index, WORKSPACE_WIDE, "")
      return index
    }),
  // An index is costly to build and cheap to hold: it stays while its workspace asks now and then.
  idleMillis: 30 * 60_000,
  messages: {
    /** BM25 over what the asker may read of the sources, once per query (the question, then its rewrite). */
    search: {
      payload: Schema.Struct({ ...AskerFields, queries: Schema.Array(Schema.String), limit: Schema.Number }),
      success: Schema.Struct({ readable: Schema.Number, ranked: Schema.Array(Schema.Array(RankedPassage)) }),
      error: Schema.Never
    },
    /** Every passage of the sources the asker may read, in source order (the agent loop's lookups). */
    passages: { payload: Schema.Struct(AskerFields), success: Schema.Array(Passage), error: Schema.Never }
  },
  handlers: {
    search: (payload, ctx) =>
      orDie(
        Effect.gen(function* () {
          const index = ctx.state
          const { slots, admit, readable: mayRead } = yield* prepare(index, payload)
          let readable = 0
          for (const [id] of index.passagesOf(slots)) if (mayRead(id)) readable++
          const passageOf = (id: number) => index.docs.get(id)!.passage
          // Specificity among what the asker may read of the sources (not only the meeting named: within it every
          // passage shares its words), counted from the postings.
          const weigh = (wanted: ReadonlyArray<string>, question: string) =>
            specificityAmong(readable, (term) => index.containing(term, mayRead), wanted, question)
          return {
            readable,
            ranked: payload.queries.map((text) => rankIn(index.search, passageOf, text, payload.limit, weigh, admit))
          }
        })
      ),
    passages: (payload, ctx) =>
      orDie(
        Effect.gen(function* () {
          const index = ctx.state
          const { slots, admit } = yield* prepare(index, payload)
          const found: Array<Passage> = []
          for (const [id, doc] of index.passagesOf(slots)) if (admit(id)) found.push(doc.passage)
          return found
        })
      )
  }
})
