/**
 * The transcript with speakers and timestamps. `?t=<ms>` (a shared link) marks
 * the segment spoken at that moment, `&until=<ms>` (a Lens citation) every
 * segment of the cited passage; the first is scrolled to and focused. A
 * timestamp plays the media from there and puts the moment in the URL.
 */
import { useEffect, useRef } from "react"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { clock } from "../common/time.ts"
import { useTranscript } from "./queries.ts"

interface Segment {
  readonly speaker: string
  readonly startMs: number
  readonly endMs: number
  readonly text: string
}

/** The segment spoken at `ms`: the one covering it, else the last one started before it. */
const segmentAt = (segments: ReadonlyArray<Segment>, ms: number): number => {
  const covering = segments.findIndex((segment) => segment.startMs <= ms && ms < segment.endMs)
  if (covering >= 0) return covering
  let last = -1
  segments.forEach((segment, index) => {
    if (segment.startMs <= ms) last = index
  })
  return last
}

/** The segments marked for `?t=` and `&until=`. */
const marked = (segments: ReadonlyArray<Segment>, atMs: number | undefined, untilMs: number | undefined): ReadonlySet<number> => {
  if (atMs === undefined) return new Set()
  const first = segmentAt(segments, atMs)
  if (first < 0) return new Set()
  const indexes = new Set([first])
  if (untilMs === undefined) return indexes
  for (let index = first + 1; index < segments.length && segments[index]!.startMs < untilMs; index++) indexes.add(index)
  return indexes
}

export const Transcript = ({
  callId,
  atMs,
  untilMs,
  onSeek
}: {
  readonly callId: number
  readonly atMs: number | undefined
  readonly untilMs: number | undefined
  readonly onSeek: (ms: number) => void
}) => {
  const transcript = useTranscript(callId)
  const current = useRef<HTMLLIElement>(null)
  const segments = transcript.data?.segments ?? []
  const highlighted = marked(segments, atMs, untilMs)
  const currentIndex = highlighted.size === 0 ? -1 : Math.min(...highlighted)
  useEffect(() => {
    // After the shell's own focus handling for a new page (its effect runs after this one).
    const timer = setTimeout(() => {
      if (currentIndex < 0 || !current.current) return
      current.current.scrollIntoView({ block: "center" })
      current.current.focus({ preventScroll: true })
    }, 0)
    return () => clearTimeout(timer)
  }, [currentIndex])
  return (
    <section aria-labelledby="transcript-heading" className="panel transcript">
      <h2 id="transcript-heading">Transcript</h2>
      {transcript.isPending ? <Loading what="the transcript" /> : null}
      {transcript.isError ? <ErrorMessage error={transcript.error} what="Transcript" /> : null}
      {currentIndex >= 0 && atMs !== undefined ? (
        <p role="status" className="muted">
          Showing the moment at {clock(atMs)}
        </p>
      ) : null}
      <ol className="segments" aria-label="Transcript segments">
        {segments.map((segment, index) => (
          <li
            key={`${segment.startMs}-${index}`}
            ref={index === currentIndex ? current : undefined}
            tabIndex={index === currentIndex ? -1 : undefined}
            aria-current={highlighted.has(index) ? "true" : undefined}
            className={highlighted.has(index) ? "segment segment-current" : "segment"}
          >
            <button
              type="button"
              className="timestamp"
              onClick={() => onSeek(segment.startMs)}
              aria-label={`Play from ${clock(segment.startMs)}, ${segment.speaker}`}
            >
              {clock(segment.startMs)}
            </button>
            <span className="speaker">{segment.speaker}</span>
            <span className="segment-text">{segment.text}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
