/**
 * The call actor (kind "hubCall", one per recording id): the single writer of
 * a recording, its transcript, its participants' notes and prompts, its
 * versions and its action items' states. It holds the aggregate in memory
 * (rebuilt from the rows on activation) and serves every read of the call
 * from there; each change commits its rows before the reply.
 *
 * Versions: one per distinct input key. A reader's version is generated on
 * first need (a reader with inputs nobody had before), so changing one input
 * regenerates exactly the versions with that input and nothing else.
 */
import { Effect, Schema } from "effect"
import { Sql, query } from "../../persistence/Sql.ts"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import { now } from "../Fields.ts"
import {
  ActionState,
  ActionStatus,
  ChunkProgress,
  type CallState,
  CallState as CallStateSchema,
  MediaInfo,
  ProcessingStage,
  RecordingRecord,
  RecordingStatus,
  loadCall,
  type StoredVersion,
  templateOf
} from "./CallRecords.ts"
import { Call, callFor } from "./CallView.ts"
import { Summarizer } from "./summarizer/Summarizer.ts"
import { jobQueued } from "./JobWakeups.ts"
import { enqueueMeetingProcessed } from "./webhooks/MeetingProcessed.ts"
import { usersByEmails } from "../identity/IdentityQueries.ts"
import { enqueueNotifications } from "../notifications/Outbox.ts"
import { hubActionAssignedEntries, hubNotesReadyEntries } from "../notifications/Sources.ts"
import { inputKey, inputsOf, isDefaultInputs, type NoteTemplate, type VersionInputs } from "./summarizer/VersionInputs.ts"
import { Segment, segmentProblem } from "./Transcript.ts"
import {
  HubActionItemNotFound,
  HubNothingToSummarize,
  HubRecordingBusy,
  HubRecordingNotFound,
  HubTranscriptRefused,
  HubVersionNotGenerated
} from "./HubErrors.ts"

/** Who reads, with the inputs that live outside the call (the workspace's prompt, their calendar prompt). */
const Reader = {
  userId: Schema.String,
  workspacePrompt: Schema.NullOr(Schema.String),
  calendarPrompt: Schema.NullOr(Schema.String)
}
const ReaderStruct = Schema.Struct(Reader)
type Reader = typeof ReaderStruct.Type

export const JobKind = Schema.Literals(["process", "summarize"])
export type JobKind = typeof JobKind.Type

type Ctx = ActorContext<CallState | null>

/** Participants with identical inputs share one generated version (off only to measure what sharing saves). */
const SHARE_VERSIONS = process.env.HUB_SHARE_VERSIONS !== "0"

const existing = (ctx: Ctx) => (ctx.state === null ? Effect.fail(new HubRecordingNotFound()) : Effect.succeed(ctx.state))

const templateFor = (state: CallState, userId: string) =>
  Object.hasOwn(state.templates, userId) ? Effect.succeed(state.templates[userId]!) : Effect.orDie(templateOf(userId))

const inputsFor = (state: CallState, reader: Reader, template: NoteTemplate | null): VersionInputs =>
  inputsOf(
    reader.workspacePrompt,
    {
      callPrompt: state.participants[reader.userId]?.prompt ?? null,
      calendarPrompt: reader.calendarPrompt,
      notes: state.participants[reader.userId]?.notes ?? null
    },
    template
  )

const meetingDate = (state: CallState) => state.recording.createdAt.slice(0, 10)

/** The version for `inputs`, generated (not yet stored). */
const generate = (state: CallState, inputs: VersionInputs) =>
  Effect.gen(function* () {
    const summarizer = yield* Summarizer
    const content = yield* summarizer
      .generate({ segments: state.segments, inputs, meetingDate: meetingDate(state) })
      .pipe(Effect.mapError((error) => new HubVersionNotGenerated({ reason: error.message })))
    return { key: inputKey(inputs), version: { isDefault: isDefaultInputs(inputs), content, generatedAt: now() } }
  })

const writeVersion = (recordingId: number, key: string, version: StoredVersion) =>
  query(
    `INSERT INTO hub_call_versions (recording_id, input_key, is_default, content, generated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (recording_id, input_key) DO UPDATE SET content = EXCLUDED.content, generated_at = EXCLUDED.generated_at`,
    [recordingId, key, version.isDefault, version.content, version.generatedAt]
  )

/** The state with the version for `inputs` stored (generated and written when missing and the recording is ready). */
const ensureVersion = (state: CallState, inputs: VersionInputs) =>
  Effect.gen(function* () {
    if (state.recording.status !== "ready" || state.versions[inputKey(inputs)] !== undefined) return state
    const { key, version } = yield* generate(state, inputs)
    yield* Effect.orDie(writeVersion(state.recording.id, key, version))
    return { ...state, versions: { ...state.versions, [key]: version } }
  })

/**
 * Views built from a state, by reader: a warm read hands out the same object (so its reply is encoded
 * once) until the state changes, which makes a new state object. Only participants' views are kept: a
 * non-participant's note template is read on each request, not held in the state.
 */
const views = new WeakMap<CallState, Map<string, Call>>()
const readerKey = (reader: Reader) =>
  `${reader.userId}\u0000${reader.workspacePrompt ?? "\u0001"}\u0000${reader.calendarPrompt ?? "\u0001"}`

/** The call as `reader` sees it, generating their version when it is missing. */
const viewFor = (ctx: Ctx, state: CallState, reader: Reader) =>
  Effect.gen(function* () {
    const key = readerKey(reader)
    const known = views.get(state)?.get(key)
    if (known !== undefined) return known
    const inputs = inputsFor(state, reader, yield* templateFor(state, reader.userId))
    const next = yield* ensureVersion(state, inputs)
    if (next !== state) ctx.setState(next)
    const call = callFor(next, reader.userId, inputs)
    if (Object.hasOwn(next.templates, reader.userId)) {
      let byReader = views.get(next)
      if (byReader === undefined) views.set(next, (byReader = new Map()))
      byReader.set(key, call)
    }
    return call
  })

const touchRecording = (state: CallState, patch: Partial<RecordingRecord>): CallState => ({
  ...state,
  recording: { ...state.recording, ...patch, updatedAt: now() }
})

/** Writes the recording's status columns (and optional extras) as they are in `state`. */
const saveStatus = (state: CallState) =>
  query(
    `UPDATE hub_recordings SET status = $2, percent = $3, error = $4, media = $5, name = $6, stage = $7, chunks = $8, updated_at = now()
      WHERE id = $1`,
    [
      state.recording.id,
      state.recording.status,
      state.recording.percent,
      state.recording.error,
      state.recording.media,
      state.recording.name,
      state.recording.stage,
      state.recording.chunks
    ]
  )

/** Drops every version and queues a job: a changed transcript or a reprocess changes every version. */
const requeue = (state: CallState, kind: JobKind) =>
  Effect.gen(function* () {
    const next: CallState = {
      ...touchRecording(state, { status: "queued", percent: 0, error: null, stage: null, chunks: null }),
      versions: {}
    }
    yield* Effect.orDie(
      Sql.use((sql) =>
        sql.transaction(
          Effect.gen(function* () {
            yield* sql.query(`DELETE FROM hub_call_versions WHERE recording_id = $1`, [state.recording.id])
            yield* saveStatus(next)
            yield* sql.query(
              `INSERT INTO hub_recording_jobs (recording_id, kind, state) VALUES ($1, $2, 'queued')
               ON CONFLICT (recording_id) DO UPDATE SET kind = CASE WHEN hub_recording_jobs.kind = 'process' THEN 'process' ELSE EXCLUDED.kind END,
                 state = 'queued', attempts = 0, lease_until = NULL, created_at = now()`,
              [state.recording.id, kind]
            )
          })
        )
      )
    )
    yield* jobQueued
    return next
  })

const busy = (state: CallState) =>
  state.recording.status === "queued" || state.recording.status === "processing" ? Effect.fail(new HubRecordingBusy()) : Effect.void

const checkSegments = (segments: ReadonlyArray<Segment>, path: string) => {
  const found = segmentProblem(segments, path)
  return found === undefined ? Effect.void : Effect.fail(new HubTranscriptRefused(found))
}

/** A reader's view may generate their version first. */
const Versioned = Schema.Union([HubRecordingNotFound, HubVersionNotGenerated])

export const HubCall = Actor<CallState | null>()({
  kind: "hubCall",
  state: Schema.NullOr(CallStateSchema),
  initial: () => null,
  rebuild: (id) => loadCall(id),
  messages: {
    /** The call with the reader's own version. */
    view: { payload: ReaderStruct, success: Call, error: Versioned },
    /** The recording's metadata and status (no version). */
    recording: { payload: Schema.Struct({}), success: RecordingRecord, error: HubRecordingNotFound },
    transcript: { payload: Schema.Struct({}), success: Schema.Array(Segment), error: HubRecordingNotFound },
    participantIds: { payload: Schema.Struct({}), success: Schema.Array(Schema.String), error: HubRecordingNotFound },
    /** Every action item of every stored version (the union), with their states. */
    actionItemIds: { payload: Schema.Struct({}), success: Schema.Array(Schema.String), error: HubRecordingNotFound },
    setNotes: { payload: Schema.Struct({ ...Reader, notes: Schema.NullOr(Schema.String) }), success: Call, error: Versioned },
    setPrompt: { payload: Schema.Struct({ ...Reader, prompt: Schema.NullOr(Schema.String) }), success: Call, error: Versioned },
    rename: { payload: Schema.Struct({ name: Schema.String }), success: RecordingRecord, error: HubRecordingNotFound },
    /** Worker: progress of the running job. */
    progress: {
      payload: Schema.Struct({
        status: RecordingStatus,
        percent: Schema.Number,
        error: Schema.NullOr(Schema.String),
        stage: Schema.NullOr(ProcessingStage),
        chunks: Schema.optionalKey(Schema.NullOr(ChunkProgress)),
        /** What extraction found, kept even if a later stage fails. */
        media: Schema.optionalKey(MediaInfo)
      }),
      success: RecordingRecord,
      error: HubRecordingNotFound
    },
    /** Worker: the transcript the speech engine produced (replaces the segments; the running job goes on). */
    transcribed: {
      payload: Schema.Struct({ segments: Schema.Array(Segment) }),
      success: RecordingRecord,
      error: Schema.Union([HubRecordingNotFound, HubTranscriptRefused])
    },
    /** Worker: the job finished; generate every participant's version and the default one, then ready. */
    finish: {
      payload: Schema.Struct({
        media: Schema.NullOr(MediaInfo),
        workspacePrompt: Schema.NullOr(Schema.String),
        calendarPrompts: Schema.Record(Schema.String, Schema.NullOr(Schema.String))
      }),
      success: RecordingRecord,
      error: Versioned
    },
    /** Summary regeneration ("summarize") or full reprocess ("process"). */
    requeue: {
      payload: Schema.Struct({ kind: JobKind }),
      success: RecordingRecord,
      error: Schema.Union([HubRecordingNotFound, HubRecordingBusy, HubNothingToSummarize])
    },
    /** A media file was stored for the recording: process it. */
    attachMedia: { payload: Schema.Struct({ media: MediaInfo }), success: RecordingRecord, error: HubRecordingNotFound },
    /** Replaces the transcript, or appends live segments to it; versions are regenerated. */
    writeSegments: {
      payload: Schema.Struct({ segments: Schema.Array(Segment), append: Schema.Boolean }),
      success: RecordingRecord,
      error: Schema.Union([HubRecordingNotFound, HubRecordingBusy, HubTranscriptRefused])
    },
    setAction: {
      payload: Schema.Struct({
        by: Schema.String,
        actionItemId: Schema.String,
        status: Schema.optionalKey(ActionStatus),
        assigneeEmail: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: ActionState,
      error: Schema.Union([HubRecordingNotFound, HubActionItemNotFound])
    },
    delete: { payload: Schema.Struct({}), success: Schema.Void, error: HubRecordingNotFound }
  },
  handlers: {
    view: (reader, ctx) => Effect.flatMap(existing(ctx), (state) => viewFor(ctx, state, reader)),
    recording: (_, ctx) => Effect.map(existing(ctx), (state) => state.recording),
    transcript: (_, ctx) => Effect.map(existing(ctx), (state) => state.segments),
    participantIds: (_, ctx) => Effect.map(existing(ctx), (state) => Object.keys(state.participants)),
    actionItemIds: (_, ctx) =>
      Effect.map(existing(ctx), (state) => [
        ...new Set(Object.values(state.versions).flatMap((v) => v.content.actionItems.map((item) => item.id)))
      ]),
    setNotes: ({ notes, ...reader }, ctx) => setPersonal(ctx, reader, { notes }),
    setPrompt: ({ prompt, ...reader }, ctx) => setPersonal(ctx, reader, { prompt }),
    rename: ({ name }, ctx) =>
      Effect.gen(function* () {
        const next = touchRecording(yield* existing(ctx), { name })
        yield* Effect.orDie(saveStatus(next))
        ctx.setState(next)
        return next.recording
      }),
    progress: ({ chunks, ...patch }, ctx) =>
      Effect.gen(function* () {
        const current = yield* existing(ctx)
        // Chunk counts belong to the transcribing stage: kept while it runs unless given, dropped after it.
        const next = touchRecording(current, {
          ...patch,
          chunks: patch.stage === "transcribing" ? (chunks !== undefined ? chunks : current.recording.chunks) : null
        })
        yield* Effect.orDie(saveStatus(next))
        ctx.setState(next)
        return next.recording
      }),
    finish: ({ media, workspacePrompt, calendarPrompts }, ctx) =>
      Effect.gen(function* () {
        const current = yield* existing(ctx)
        // Re-queued while this job ran (live segments, a new transcript): the next run finishes it.
        const [job] = yield* Effect.orDie(
          query<{ state: string }>(`SELECT state FROM hub_recording_jobs WHERE recording_id = $1`, [current.recording.id])
        )
        if (job?.state === "queued") return current.recording
        const ready: CallState = touchRecording(current, { status: "ready", percent: 100, error: null, stage: null, chunks: null, media })
        // The default version, then one per distinct set of participants' inputs (identical inputs share one).
        const defaults = inputsOf(workspacePrompt, { callPrompt: null, calendarPrompt: null, notes: null }, null)
        const personal = Object.keys(ready.participants).map((userId) =>
          inputsFor(ready, { userId, workspacePrompt, calendarPrompt: calendarPrompts[userId] ?? null }, ready.templates[userId] ?? null)
        )
        // The default version, then one per distinct set of participants' inputs (identical inputs share one);
        // HUB_SHARE_VERSIONS=0 (the bench's comparison) generates one per participant instead.
        const wanted = SHARE_VERSIONS
          ? [...new Map([defaults, ...personal].map((inputs) => [inputKey(inputs), inputs])).values()]
          : personal.some(isDefaultInputs)
            ? personal
            : [defaults, ...personal]
        // Generated before the transaction (a model may take a while), written in one commit with the status.
        const generated = yield* Effect.forEach(wanted, (inputs) => generate(ready, inputs))
        const state: CallState = { ...ready, versions: Object.fromEntries(generated.map(({ key, version }) => [key, version])) }
        const written = yield* Effect.orDie(
          Sql.use((sql) =>
            sql.transaction(
              Effect.gen(function* () {
                yield* sql.query(`DELETE FROM hub_call_versions WHERE recording_id = $1`, [state.recording.id])
                for (const { key, version } of generated) yield* writeVersion(state.recording.id, key, version)
                yield* saveStatus(state)
                yield* sql.query(`DELETE FROM hub_recording_jobs WHERE recording_id = $1`, [state.recording.id])
                // Participants' personal webhooks learn it in the same commit ("meeting.processed").
                const { id, callId, callUuid, workspaceId } = state.recording
                yield* enqueueMeetingProcessed(
                  { workspaceId, recordingId: id, callId, callUuid, status: "ready" },
                  Object.keys(state.participants)
                )
                // Its people with an account (participants, the one who recorded it, attendees) learn their notes are ready.
                yield* enqueueNotifications(
                  hubNotesReadyEntries({ workspaceId, recordingId: id, callId, name: state.recording.name }, [
                    state.recording.createdBy,
                    ...Object.keys(state.participants),
                    ...state.recording.attendees.flatMap((attendee) => (attendee.userId === null ? [] : [attendee.userId]))
                  ])
                )
                return state
              })
            )
          )
        )
        ctx.setState(written)
        return written.recording
      }),
    transcribed: ({ segments }, ctx) =>
      Effect.gen(function* () {
        const state = yield* existing(ctx)
        yield* checkSegments(segments, "segments")
        yield* Effect.orDie(query(`UPDATE hub_recordings SET segments = $2 WHERE id = $1`, [state.recording.id, segments]))
        const next = { ...state, segments }
        ctx.setState(next)
        return next.recording
      }),
    requeue: ({ kind }, ctx) =>
      Effect.gen(function* () {
        const state = yield* existing(ctx)
        yield* busy(state)
        if (kind === "summarize" && state.segments.length === 0) return yield* new HubNothingToSummarize()
        const next = yield* requeue(state, kind)
        ctx.setState(next)
        return next.recording
      }),
    attachMedia: ({ media }, ctx) =>
      Effect.gen(function* () {
        // Right after creation too: a job running now sees itself re-queued and leaves the finish to the next run.
        const state = yield* existing(ctx)
        const next = yield* requeue(touchRecording(state, { media }), "process")
        ctx.setState(next)
        return next.recording
      }),
    writeSegments: ({ segments, append }, ctx) =>
      Effect.gen(function* () {
        const state = yield* existing(ctx)
        if (!append) yield* busy(state)
        const all = append ? [...state.segments, ...segments] : segments
        yield* checkSegments(all, "body.segments")
        yield* Effect.orDie(query(`UPDATE hub_recordings SET segments = $2 WHERE id = $1`, [state.recording.id, all]))
        const next = yield* requeue({ ...state, segments: all }, "summarize")
        ctx.setState(next)
        return next.recording
      }),
    setAction: ({ by, actionItemId, ...patch }, ctx) =>
      Effect.gen(function* () {
        const state = yield* existing(ctx)
        const item = Object.values(state.versions)
          .flatMap((v) => v.content.actionItems)
          .find((candidate) => candidate.id === actionItemId)
        if (item === undefined) return yield* new HubActionItemNotFound()
        const current = state.actions[actionItemId]
        const action: ActionState = {
          status: patch.status ?? current?.status ?? "open",
          assigneeEmail: patch.assigneeEmail !== undefined ? patch.assigneeEmail : (current?.assigneeEmail ?? null),
          updatedBy: by,
          updatedAt: now()
        }
        // A newly named assignee with an account is told, in the commit that assigns them.
        const assigned =
          action.assigneeEmail !== null && action.assigneeEmail !== (current?.assigneeEmail ?? null)
            ? [...(yield* Effect.orDie(usersByEmails([action.assigneeEmail.trim().toLowerCase()]))).values()][0]
            : undefined
        const { workspaceId, id, callId, name } = state.recording
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.transaction(
              Effect.gen(function* () {
                yield* sql.query(
                  `INSERT INTO hub_action_item_states (recording_id, action_item_id, status, assignee_email, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
                   ON CONFLICT (recording_id, action_item_id) DO UPDATE SET status = $3, assignee_email = $4, updated_by = $5, updated_at = $6`,
                  [id, actionItemId, action.status, action.assigneeEmail, by, action.updatedAt]
                )
                if (assigned !== undefined)
                  yield* enqueueNotifications(
                    hubActionAssignedEntries({ workspaceId, recordingId: id, callId, name }, item, assigned.id, by)
                  )
              })
            )
          )
        )
        ctx.setState({ ...state, actions: { ...state.actions, [actionItemId]: action } })
        return action
      }),
    delete: (_, ctx) =>
      Effect.gen(function* () {
        const state = yield* existing(ctx)
        yield* Effect.orDie(query(`DELETE FROM hub_recordings WHERE id = $1`, [state.recording.id]))
        ctx.setState(null)
      })
  }
})

/** Sets one of the reader's personal inputs (they become a participant) and answers their new view. */
const setPersonal = (ctx: Ctx, reader: Reader, patch: { notes?: string | null; prompt?: string | null }) =>
  Effect.gen(function* () {
    const state = yield* existing(ctx)
    const current = state.participants[reader.userId] ?? { notes: null, prompt: null }
    const personal = { ...current, ...patch }
    yield* Effect.orDie(
      query(
        `INSERT INTO hub_call_participants (recording_id, user_id, notes, prompt) VALUES ($1, $2, $3, $4)
         ON CONFLICT (recording_id, user_id) DO UPDATE SET notes = $3, prompt = $4`,
        [state.recording.id, reader.userId, personal.notes, personal.prompt]
      )
    )
    const template = yield* templateFor(state, reader.userId)
    const next: CallState = {
      ...state,
      participants: { ...state.participants, [reader.userId]: personal },
      templates: { ...state.templates, [reader.userId]: template }
    }
    ctx.setState(next)
    return yield* viewFor(ctx, next, reader)
  })
