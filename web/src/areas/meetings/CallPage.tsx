/**
 * One call as the signed-in user sees it: their own version (summary, key
 * points, action items, enhanced notes), their notes and per-call prompt,
 * processing progress and "regenerate", the media and the transcript.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useEffect, useId, useRef, useState } from "react"
import { Link, useParams, useSearchParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { Markdownish } from "../common/Markdownish.tsx"
import { unwrap } from "../common/result.ts"
import { when } from "../common/time.ts"
import { useDraft } from "../common/useDraft.ts"
import { ActionItems } from "./ActionItems.tsx"
import { CustomerAsks } from "./CustomerAsks.tsx"
import { Media } from "./Media.tsx"
import { meetingKeys, useCall, useProgress } from "./queries.ts"
import { Transcript } from "./Transcript.tsx"

type Call = NonNullable<ReturnType<typeof useCall>["data"]>

/** A text the user owns on this call (notes or prompt), saved with its own button. */
const OwnText = ({
  call,
  field,
  label,
  hint,
  rows
}: {
  readonly call: Call
  readonly field: "notes" | "prompt"
  readonly label: string
  readonly hint: string
  readonly rows: number
}) => {
  const queryClient = useQueryClient()
  const saved = (field === "notes" ? call.userNotes : call.myPrompt) ?? ""
  const draft = useDraft(`call-${field}:${call.id}`, saved)
  const id = useId()
  const save = useMutation({
    mutationFn: () => {
      const text = draft.value.trim() === "" ? null : draft.value
      const path = { callId: String(call.id) }
      return unwrap(
        field === "notes"
          ? client.PUT("/hub/v1/calls/{callId}/my-notes", { params: { path }, body: { notes: text } })
          : client.PUT("/hub/v1/calls/{callId}/my-prompt", { params: { path }, body: { prompt: text } })
      )
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(meetingKeys.call(Number(call.id)), updated)
      draft.reset((field === "notes" ? updated.userNotes : updated.myPrompt) ?? "")
    }
  })
  return (
    <form
      className="own-text"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-hint`} className="muted small">
        {hint}
      </p>
      <textarea
        id={id}
        rows={rows}
        value={draft.value}
        onChange={(event) => draft.setValue(event.currentTarget.value)}
        aria-describedby={`${id}-hint`}
      />
      <div className="row">
        <button type="submit" disabled={!draft.dirty || save.isPending}>
          {save.isPending ? "Saving…" : `Save ${field === "notes" ? "notes" : "prompt"}`}
        </button>
        {draft.dirty ? <span className="muted small">Unsaved changes</span> : null}
      </div>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  )
}

const Progress = ({
  recordingId,
  watching,
  onDone
}: {
  readonly recordingId: number
  readonly watching: boolean
  readonly onDone: () => void
}) => {
  const progress = useProgress(recordingId, watching)
  const status = progress.data?.status
  useEffect(() => {
    if (watching && (status === "ready" || status === "failed")) onDone()
  }, [watching, status, onDone])
  if (!watching || !progress.data) return null
  if (progress.data.status === "failed") return <p role="alert">Processing failed: {progress.data.error ?? "unknown error"}</p>
  const percent = Math.round(Number(progress.data.percent))
  const { stage, chunks } = progress.data
  const doing =
    progress.data.status === "queued"
      ? "Queued"
      : stage === "transcribing"
        ? `Transcribing${chunks ? ` (chunk ${chunks.done} of ${chunks.total})` : ""}`
        : stage === "extracting"
          ? "Extracting audio"
          : stage === "summarizing"
            ? "Writing notes"
            : "Processing"
  return (
    <div className="progress" role="status">
      <label>
        {doing} {percent}%
        <progress max={100} value={percent} />
      </label>
    </div>
  )
}

export const CallPage = () => {
  const { workspaceId, callId: callParam } = useParams()
  const callId = Number(callParam)
  const [search, setSearch] = useSearchParams()
  const atParam = search.get("t")
  const atMs = atParam !== null && /^\d+$/.test(atParam) ? Number(atParam) : undefined
  const untilParam = search.get("until")
  const untilMs = untilParam !== null && /^\d+$/.test(untilParam) ? Number(untilParam) : undefined
  const call = useCall(callId)
  const queryClient = useQueryClient()
  const media = useRef<HTMLMediaElement>(null)
  const [watching, setWatching] = useState(false)
  const [announcement, setAnnouncement] = useState("")
  const processing = call.data !== undefined && call.data.status !== "ready" && call.data.status !== "failed"
  const regenerate = useMutation({
    mutationFn: (recordingId: number) =>
      unwrap(
        client.POST("/hub/v1/recordings/{recordingId}/regenerate-summary", { params: { path: { recordingId: String(recordingId) } } })
      ),
    onSuccess: (progress) => {
      queryClient.setQueryData(meetingKeys.progress(Number(progress.id)), progress)
      setAnnouncement("")
      setWatching(true)
    }
  })
  const finished = () => {
    setWatching(false)
    setAnnouncement("Your notes were regenerated.")
    void queryClient.invalidateQueries({ queryKey: meetingKeys.call(callId) })
  }
  const seek = (ms: number) => {
    setSearch({ t: String(ms) }, { replace: true })
    const element = media.current
    if (element) {
      element.currentTime = ms / 1000
      void element.play().catch(() => undefined)
    }
  }
  if (!Number.isInteger(callId)) return <p role="alert">This is not a meeting address.</p>
  if (call.isPending) return <Loading what="the meeting" />
  if (call.isError) return <ErrorMessage error={call.error} what="Meeting" />
  const data = call.data
  const recordingId = Number(data.recordingId)
  return (
    <article className="area-page call-page" aria-labelledby="call-title">
      <header className="area-header">
        <p className="breadcrumb">
          <Link to={`/w/${workspaceId}/meetings`}>Meetings</Link>
        </p>
        <h1 id="call-title">{data.name}</h1>
        <p className="muted">
          {when(data.createdAt)} · {data.attendees.map((attendee) => attendee.name ?? attendee.email).join(", ")}
        </p>
        <p className="version-note">
          {data.notesVersion.isDefault
            ? "You see the default version (the workspace prompt alone): add notes or a prompt to get your own."
            : "Your own version: generated from your notes and prompt."}
        </p>
        <div className="row">
          <button type="button" onClick={() => regenerate.mutate(recordingId)} disabled={regenerate.isPending || watching || processing}>
            {watching ? "Regenerating…" : "Regenerate"}
          </button>
          <span role="status" className="muted">
            {announcement}
          </span>
        </div>
        {regenerate.isError ? <ErrorMessage error={regenerate.error} what="Regenerate" /> : null}
        <Progress recordingId={recordingId} watching={watching || processing} onDone={finished} />
      </header>
      <div className="call-columns">
        <div className="call-main">
          <section aria-labelledby="summary-heading" className="panel">
            <h2 id="summary-heading">Summary</h2>
            <p>{data.summary || "No summary yet."}</p>
            <h3>Key points</h3>
            {data.keyPoints.length === 0 ? <p className="muted">None.</p> : null}
            <ul>
              {data.keyPoints.map((point, index) => (
                <li key={index}>{point}</li>
              ))}
            </ul>
          </section>
          <ActionItems workspaceId={workspaceId!} callUuid={data.uuid} items={data.actionItems} />
          <CustomerAsks workspaceId={workspaceId!} callId={callId} onSeek={seek} />
          <section aria-labelledby="enhanced-heading" className="panel">
            <h2 id="enhanced-heading">Enhanced notes</h2>
            {data.enhancedNotes ? <Markdownish text={data.enhancedNotes} /> : <p className="muted">None yet.</p>}
          </section>
          <section aria-labelledby="mine-heading" className="panel">
            <h2 id="mine-heading">Your notes and prompt</h2>
            <OwnText
              key={`notes-${data.id}`}
              call={data}
              field="notes"
              label="My notes"
              hint="Only you see them; your version of the meeting is generated from them."
              rows={6}
            />
            <OwnText
              key={`prompt-${data.id}`}
              call={data}
              field="prompt"
              label="My prompt for this meeting"
              hint="Steers your summary; when empty, your calendar series and occurrence prompts apply."
              rows={3}
            />
          </section>
        </div>
        <div className="call-side">
          <section aria-label="Recording" className="panel">
            <Media recordingId={recordingId} mediaRef={media} title={data.name} />
          </section>
          <Transcript callId={callId} atMs={atMs} untilMs={untilMs} onSeek={seek} />
        </div>
      </div>
    </article>
  )
}
