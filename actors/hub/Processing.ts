/**
 * The processing worker: claims queued jobs from `hub_recording_jobs` (a
 * lease, so another node takes over a job whose node died), extracts audio
 * and preview frames with ffmpeg when the recording has media, then has the
 * call actor generate every participant's version and mark it ready, all
 * reported as progress. A job interrupted too often fails with a message
 * that says so: nothing stays "processing" for ever.
 */
import { Effect } from "effect"
import { BlobStore } from "../../persistence/BlobStore.ts"
import { Sql } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { safetyPollMillis, Wakeup } from "../../runtime/Wakeup.ts"
import { Workspace } from "../identity/Workspace.ts"
import { charge } from "../lens/LensAccount.ts"
import { HubCall, type JobKind } from "./CallActor.ts"
import type { MediaInfo, ProcessingStage, RecordingRecord } from "./CallRecords.ts"
import { calendarPromptsOf } from "./CalendarPrompts.ts"
import { proposeCustomerAsks } from "./CallProposals.ts"
import { jobsQueued } from "./JobWakeups.ts"
import { extract } from "./Media.ts"
import { speechEngineFromEnv } from "./speech/Engines.ts"
import { NOT_CONFIGURED } from "./speech/SpeechEngine.ts"
import { transcribe } from "./speech/Transcription.ts"
import { finishedChunks } from "./speech/TranscriptionChunks.ts"

/** A job claimed this many times without finishing fails. */
export const MAX_ATTEMPTS = 3
const LEASE_SECONDS = Number(process.env.HUB_JOB_LEASE_SECONDS || 300)
/** How often the loop looks for jobs it was not woken for (another node's, an expired lease). */
const pollMillis = () => Number(process.env.HUB_JOB_POLL_MS || safetyPollMillis())

export const originalKey = (recordingId: number) => `hub/recordings/${recordingId}/original`
const audioKey = (recordingId: number) => `hub/recordings/${recordingId}/audio.mp3`
const frameKey = (recordingId: number, index: number) => `hub/recordings/${recordingId}/frame-${index}.jpg`

export const extensionOf = (contentType: string) =>
  contentType.split("/")[1]?.replace(/^x-/, "").replace("quicktime", "mov").replace("mpeg", "mp3") ?? "bin"

/** Claims the oldest queued job (or one whose lease ran out), counting the attempt. */
const claim = Sql.use((sql) =>
  sql.query<{ recordingId: number; kind: JobKind; attempts: number }>(
    `UPDATE hub_recording_jobs SET state = 'running', attempts = attempts + 1, lease_until = now() + make_interval(secs => $1)
      WHERE recording_id = (SELECT recording_id FROM hub_recording_jobs
                             WHERE state = 'queued' OR (state = 'running' AND lease_until < now())
                             ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING recording_id AS "recordingId", kind, attempts`,
    [LEASE_SECONDS]
  )
)

const fail = (recordingId: number, message: string) =>
  Effect.gen(function* () {
    yield* (yield* ActorSystem).ask(HubCall, String(recordingId), "progress", {
      status: "failed",
      percent: 100,
      error: message,
      stage: null
    })
    yield* Sql.use((sql) => sql.query(`DELETE FROM hub_recording_jobs WHERE recording_id = $1`, [recordingId]))
  })

/** Extracts audio and frames of the stored original (its bytes, read once per job) into the blob store. */
const processMedia = (recordingId: number, media: MediaInfo, original: Uint8Array | undefined) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    if (original === undefined) return media
    const extracted = yield* extract(original, extensionOf(media.contentType))
    if (extracted.audio) yield* blobs.put(audioKey(recordingId), extracted.audio, "audio/mpeg")
    const frames: Array<{ atMs: number; key: string }> = []
    for (const [index, frame] of extracted.frames.entries()) {
      yield* blobs.put(frameKey(recordingId, index), frame.bytes, "image/jpeg")
      frames.push({ atMs: frame.atMs, key: frameKey(recordingId, index) })
    }
    return {
      ...media,
      durationMs: extracted.durationMs,
      hasAudio: extracted.hasAudio,
      hasVideo: extracted.hasVideo,
      width: extracted.width,
      height: extracted.height,
      audioKey: extracted.audio ? audioKey(recordingId) : null,
      frames
    }
  })

/**
 * Transcribes the media when the transcript is not one a person imported:
 * none yet, or one an engine made (a full reprocess re-runs it; chunks done
 * with the same engine and media are reused). Answers why it cannot, or null.
 */
const transcribeIfNeeded = (recording: RecordingRecord, media: MediaInfo, original: Uint8Array | undefined) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const id = String(recording.id)
    const segments = yield* actors.ask(HubCall, id, "transcript", {})
    const engineMade = (yield* finishedChunks({ recordingId: recording.id })).length > 0
    if (segments.length > 0 && !engineMade) return null
    const engine = speechEngineFromEnv()
    if (engine === null) return segments.length > 0 ? null : NOT_CONFIGURED
    if (original === undefined) return segments.length > 0 ? null : "The recording's media file is missing; upload it again"
    const transcribed = yield* transcribe({
      recordingId: recording.id,
      original,
      extension: extensionOf(media.contentType),
      attendees: recording.attendees,
      engine,
      onProgress: (done, total) =>
        Effect.asVoid(
          actors.ask(HubCall, id, "progress", {
            status: "processing",
            percent: 40 + Math.floor((45 * done) / Math.max(1, total)),
            error: null,
            stage: "transcribing",
            chunks: { done, total }
          })
        )
    })
    if (transcribed.sentAudioMs > 0) {
      yield* charge(recording.workspaceId, [
        {
          userId: recording.createdBy,
          engine: "model",
          purpose: "transcription",
          model: engine.config.model,
          promptTokens: 0,
          completionTokens: 0,
          durationMs: transcribed.sentAudioMs
        }
      ])
    }
    if (transcribed.segments.length === 0) return "The transcription engine heard no speech in the recording's audio"
    yield* actors.ask(HubCall, id, "transcribed", { segments: transcribed.segments })
    return null
  })

const runJob = (job: { recordingId: number; kind: JobKind; attempts: number }) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const id = String(job.recordingId)
    if (job.attempts > MAX_ATTEMPTS)
      return yield* fail(
        job.recordingId,
        `Processing was interrupted ${MAX_ATTEMPTS} times (server restarts); reprocess the recording to try again`
      )
    const processing = (percent: number, stage: ProcessingStage) =>
      actors.ask(HubCall, id, "progress", { status: "processing", percent, error: null, stage })
    const recording = yield* processing(10, job.kind === "process" ? "extracting" : "summarizing")
    let media = recording.media
    if (job.kind === "process" && media !== null) {
      // Read once: extraction and transcription both work from these bytes.
      const original = (yield* (yield* BlobStore).get(originalKey(job.recordingId)))?.bytes
      media = yield* processMedia(job.recordingId, media, original)
      yield* actors.ask(HubCall, id, "progress", { status: "processing", percent: 40, error: null, stage: "extracting", media })
      if (media.hasAudio) {
        const failure = yield* transcribeIfNeeded(recording, media, original)
        if (failure !== null) return yield* fail(job.recordingId, failure)
      }
      yield* processing(85, "summarizing")
    }
    const participants = yield* actors.ask(HubCall, id, "participantIds", {})
    const prompts = yield* calendarPromptsOf(recording.calendarEventId, participants)
    const settings = yield* Workspace.client(actors)(recording.workspaceId)
      .view({ by: recording.createdBy })
      .pipe(
        Effect.map((ws) => ws.settings.customPrompt),
        Effect.catchTag(["WorkspaceNotFound", "WorkspaceSuspended", "RoleRequired"], () => Effect.succeed(null))
      )
    yield* actors.ask(HubCall, id, "finish", { media, workspacePrompt: settings, calendarPrompts: Object.fromEntries(prompts) })
    // The customers' asks become proposals; a failure there leaves the processed call as it is.
    yield* proposeCustomerAsks(job.recordingId).pipe(
      Effect.catchCause((cause) => Effect.logWarning(`hub: proposing recording ${job.recordingId}'s customer asks failed`, cause))
    )
  }).pipe(
    Effect.catchTag(["MediaError", "SpeechRefused", "SpeechUnavailable"], (error) => fail(job.recordingId, error.message)),
    Effect.catchTag(["Rejection", "HubRecordingNotFound", "HubVersionNotGenerated", "HubTranscriptRefused"], (error) =>
      fail(job.recordingId, error.message)
    ),
    Effect.catchCause((cause) =>
      Effect.andThen(
        Effect.logError(`hub: processing recording ${job.recordingId} failed`, cause),
        fail(job.recordingId, "Processing failed unexpectedly")
      ).pipe(Effect.catchCause(() => Effect.void))
    )
  )

/**
 * On start: a single node owns every job, so jobs it left running resume now;
 * recordings left queued or processing without a job fail (never stuck).
 */
export const recoverJobs = (singleNode: boolean) =>
  Sql.use((sql) =>
    Effect.gen(function* () {
      if (singleNode) yield* sql.query(`UPDATE hub_recording_jobs SET state = 'queued', lease_until = NULL WHERE state = 'running'`)
      yield* sql.query(
        `UPDATE hub_recordings SET status = 'failed', error = 'Processing was interrupted; reprocess the recording', updated_at = now()
          WHERE status IN ('queued', 'processing') AND NOT EXISTS (SELECT 1 FROM hub_recording_jobs j WHERE j.recording_id = hub_recordings.id)`
      )
    })
  )

/** Keeps the lease of a running job while it runs (never ends: it loses the race with the job). */
const renewLease = (recordingId: number) =>
  Effect.forever(
    Effect.sleep((LEASE_SECONDS * 1000) / 3).pipe(
      Effect.andThen(
        Sql.use((sql) =>
          sql.query(
            `UPDATE hub_recording_jobs SET lease_until = now() + make_interval(secs => $2) WHERE recording_id = $1 AND state = 'running'`,
            [recordingId, LEASE_SECONDS]
          )
        )
      ),
      Effect.ignore
    )
  )

/** Runs jobs one at a time until the scope closes. */
export const processingLoop = Effect.gen(function* () {
  const queued = (yield* Wakeup).listen(jobsQueued)
  while (true) {
    const [job] = yield* claim.pipe(Effect.catchCause((cause) => Effect.as(Effect.logWarning("hub: claiming a job failed", cause), [])))
    if (job === undefined) yield* queued.sleep(pollMillis())
    else yield* Effect.race(runJob({ ...job, recordingId: Number(job.recordingId) }), renewLease(Number(job.recordingId)))
  }
})
