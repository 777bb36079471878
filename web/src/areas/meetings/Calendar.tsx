/**
 * The user's calendar: recurring series with their occurrences, the series
 * prompt and each occurrence's prompt, and the prompt a recording of that
 * occurrence is generated with (both set: the series prompt, then the
 * occurrence's, as the server combines them).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { Link, useParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { when } from "../common/time.ts"
import { meetingKeys } from "./queries.ts"

const DAY_MS = 86_400_000

const windowOfCalendar = () => {
  const start = new Date()
  start.setHours(0, 0, 0, 0)
  return { from: new Date(start.getTime() - 7 * DAY_MS).toISOString(), to: new Date(start.getTime() + 35 * DAY_MS).toISOString() }
}

const useOccurrences = () =>
  useQuery({
    queryKey: meetingKeys.calendar,
    queryFn: () => unwrap(client.GET("/hub/v1/calendar/events", { params: { query: windowOfCalendar() } }))
  })

type Occurrence = NonNullable<ReturnType<typeof useOccurrences>["data"]>["items"][number]

const describeRecurrence = (rule: string | null): string => {
  if (!rule) return "One-off"
  const freq = /FREQ=(\w+)/.exec(rule)?.[1]
  const interval = Number(/INTERVAL=(\d+)/.exec(rule)?.[1] ?? "1")
  const unit = freq === "DAILY" ? "day" : freq === "WEEKLY" ? "week" : freq === "MONTHLY" ? "month" : "period"
  return interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}s`
}

const PromptForm = ({ occurrence, kind }: { readonly occurrence: Occurrence; readonly kind: "series" | "occurrence" }) => {
  const queryClient = useQueryClient()
  const saved = (kind === "series" ? occurrence.seriesPrompt : occurrence.occurrencePrompt) ?? ""
  const [value, setValue] = useState(saved)
  const id = useId()
  const save = useMutation({
    mutationFn: () => {
      const body = { prompt: value.trim() === "" ? null : value }
      const path = { occurrenceId: occurrence.occurrenceId }
      return unwrap(
        kind === "series"
          ? client.PUT("/hub/v1/calendar/events/{occurrenceId}/series-prompt", { params: { path }, body })
          : client.PUT("/hub/v1/calendar/events/{occurrenceId}/occurrence-prompt", { params: { path }, body })
      )
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meetingKeys.calendar })
  })
  const label = kind === "series" ? `Series prompt for ${occurrence.title}` : `Prompt for ${occurrence.title} on ${when(occurrence.start)}`
  return (
    <form
      className="prompt-form"
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate()
      }}
    >
      <label htmlFor={id}>{kind === "series" ? "Series prompt" : "This occurrence's prompt"}</label>
      <textarea id={id} aria-label={label} rows={2} value={value} onChange={(event) => setValue(event.currentTarget.value)} />
      <button type="submit" disabled={value === saved || save.isPending} aria-label={`Save ${label}`}>
        Save
      </button>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  )
}

const NewEvent = () => {
  const queryClient = useQueryClient()
  const [title, setTitle] = useState("")
  const [start, setStart] = useState("")
  const [minutes, setMinutes] = useState("30")
  const [repeat, setRepeat] = useState("")
  const [attendees, setAttendees] = useState("")
  const create = useMutation({
    mutationFn: () => {
      const begin = new Date(start)
      const end = new Date(begin.getTime() + Number(minutes) * 60_000)
      const attendeeEmails = attendees
        .split(/[\s,;]+/)
        .map((email) => email.trim())
        .filter((email) => email !== "")
      return unwrap(
        client.POST("/hub/v1/calendar/events", {
          body: {
            title,
            start: begin.toISOString(),
            end: end.toISOString(),
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            recurrence: repeat === "" ? null : `FREQ=${repeat};COUNT=12`,
            ...(attendeeEmails.length > 0 ? { attendeeEmails } : {})
          }
        })
      )
    },
    onSuccess: () => {
      setTitle("")
      void queryClient.invalidateQueries({ queryKey: meetingKeys.calendar })
    }
  })
  return (
    <details className="panel">
      <summary>New event</summary>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <label>
          Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={300} />
        </label>
        <label>
          Starts <input type="datetime-local" value={start} onChange={(event) => setStart(event.currentTarget.value)} required />
        </label>
        <label>
          Minutes <input type="number" min={5} max={600} value={minutes} onChange={(event) => setMinutes(event.currentTarget.value)} />
        </label>
        <label>
          Repeats
          <select value={repeat} onChange={(event) => setRepeat(event.currentTarget.value)}>
            <option value="">Never</option>
            <option value="DAILY">Daily (12 times)</option>
            <option value="WEEKLY">Weekly (12 times)</option>
          </select>
        </label>
        <label>
          Attendees (e-mails) <input value={attendees} onChange={(event) => setAttendees(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create event
        </button>
        {create.isError ? <ErrorMessage error={create.error} what="New event" /> : null}
      </form>
    </details>
  )
}

export const Calendar = () => {
  const workspaceId = useParams().workspaceId!
  const occurrences = useOccurrences()
  const series = new Map<string, Array<Occurrence>>()
  for (const occurrence of occurrences.data?.items ?? [])
    series.set(occurrence.eventId, [...(series.get(occurrence.eventId) ?? []), occurrence])
  return (
    <section aria-labelledby="calendar-heading" className="area-page">
      <header className="area-header">
        <p className="breadcrumb">
          <Link to={`/w/${workspaceId}/meetings`}>Meetings</Link>
        </p>
        <h1 id="calendar-heading">Calendar</h1>
        <p className="muted">
          A recording of an occurrence is summarised for you with your prompts: the series prompt, then the occurrence's own prompt when
          both are set. A prompt you set on the call itself replaces them.
        </p>
      </header>
      <NewEvent />
      {occurrences.isPending ? <Loading what="your calendar" /> : null}
      {occurrences.isError ? <ErrorMessage error={occurrences.error} what="Calendar" /> : null}
      {occurrences.data && occurrences.data.items.length === 0 ? <p>No events in the coming weeks.</p> : null}
      {[...series.values()].map((items) => {
        const first = items[0]!
        return (
          <section key={first.eventId} className="panel series" aria-label={`${first.title} (${describeRecurrence(first.recurrence)})`}>
            <h2>
              {first.title} <span className="badge">{describeRecurrence(first.recurrence)}</span>
            </h2>
            {first.location ? <p className="muted">{first.location}</p> : null}
            {first.recurring ? <PromptForm key={`s-${first.seriesPrompt}`} occurrence={first} kind="series" /> : null}
            <ol className="occurrences">
              {items.map((occurrence) => (
                <li key={occurrence.occurrenceId} className="occurrence">
                  <p className="occurrence-when">{when(occurrence.start)}</p>
                  <details>
                    <summary>Prompts</summary>
                    {!first.recurring ? <PromptForm key={`s-${occurrence.seriesPrompt}`} occurrence={occurrence} kind="series" /> : null}
                    <PromptForm key={`o-${occurrence.occurrencePrompt}`} occurrence={occurrence} kind="occurrence" />
                  </details>
                  <div className="effective">
                    <span className="muted small">Used for this meeting's notes:</span>
                    {occurrence.effectivePrompt ? (
                      <pre className="effective-prompt">{occurrence.effectivePrompt}</pre>
                    ) : (
                      <span className="muted small"> no prompt</span>
                    )}
                  </div>
                </li>
              ))}
            </ol>
          </section>
        )
      })}
    </section>
  )
}
