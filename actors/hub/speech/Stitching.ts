/**
 * Pure parts of transcription: where to cut a track into chunks (on silence,
 * under the engine's limit, with a short overlap on each side for context),
 * and how to stitch the chunks' segments back into one track (each segment
 * belongs to the chunk its middle falls in; words repeated across a border
 * are dropped) and the tracks into one transcript ordered by time.
 */
import type { Segment } from "../Transcript.ts"
import type { HeardSegment } from "./SpeechEngine.ts"

export interface Silence {
  readonly startMs: number
  readonly endMs: number
}

export interface ChunkPlan {
  /** What is sent: the owned part plus the overlap on each side. */
  readonly startMs: number
  readonly endMs: number
  /** What the chunk's segments may claim (by their middle). */
  readonly ownStartMs: number
  readonly ownEndMs: number
}

/** Parses ffmpeg's silencedetect report (`silence_start: 12.3` … `silence_end: 13.1`). */
export const parseSilences = (stderr: string): ReadonlyArray<Silence> => {
  const silences: Array<Silence> = []
  let start: number | null = null
  for (const match of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const ms = Math.max(0, Math.round(Number(match[2]) * 1000))
    if (match[1] === "start") start = ms
    else if (start !== null) {
      silences.push({ startMs: start, endMs: ms })
      start = null
    }
  }
  return silences
}

/**
 * Cuts `[0, durationMs)` into chunks of at most `maxMs` (overlap included),
 * each ending in the middle of the latest silence in its last 40%, or at the
 * limit when there is none there.
 */
export const planChunks = (
  durationMs: number,
  silences: ReadonlyArray<Silence>,
  maxMs: number,
  overlapMs: number
): ReadonlyArray<ChunkPlan> => {
  const plans: Array<ChunkPlan> = []
  const span = Math.max(1000, maxMs - 2 * overlapMs)
  let ownStart = 0
  while (ownStart < durationMs) {
    const limit = ownStart + span
    let ownEnd = durationMs
    if (limit < durationMs) {
      const earliest = ownStart + span * 0.6
      const cuts = silences.map((s) => Math.round((s.startMs + s.endMs) / 2)).filter((mid) => mid >= earliest && mid <= limit)
      ownEnd = cuts.length > 0 ? Math.max(...cuts) : limit
    }
    plans.push({
      startMs: Math.max(0, ownStart - overlapMs),
      endMs: Math.min(durationMs, ownEnd + overlapMs),
      ownStartMs: ownStart,
      ownEndMs: ownEnd
    })
    ownStart = ownEnd
  }
  return plans
}

const word = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, "")

/** Drops the words at the start of `next` that repeat the end of `previous` (up to 40: an overlap's worth). */
const withoutRepeat = (previous: string, next: string): string => {
  const before = previous.split(/\s+/).filter((w) => w !== "")
  const after = next.split(/\s+/).filter((w) => w !== "")
  for (let n = Math.min(40, before.length, after.length); n > 0; n--) {
    const tail = before.slice(-n).map(word)
    const head = after.slice(0, n).map(word)
    if (tail.every((w, i) => w !== "" && w === head[i])) return after.slice(n).join(" ")
  }
  return next
}

/** One track's segments from its chunks' answers (absolute times), in order. */
export const stitchTrack = (
  chunks: ReadonlyArray<{ readonly plan: ChunkPlan; readonly heard: ReadonlyArray<HeardSegment> }>
): ReadonlyArray<HeardSegment> => {
  const out: Array<HeardSegment> = []
  for (const { plan, heard } of chunks) {
    const owned = heard
      .map((segment) => ({ ...segment, startMs: segment.startMs + plan.startMs, endMs: segment.endMs + plan.startMs }))
      .filter((segment) => {
        const middle = (segment.startMs + segment.endMs) / 2
        return middle >= plan.ownStartMs && middle < plan.ownEndMs
      })
    for (const segment of owned) {
      const last = out.at(-1)
      // A segment that starts before the last one ended may repeat its last words (both chunks heard them).
      const text = last !== undefined && segment.startMs < last.endMs ? withoutRepeat(last.text, segment.text) : segment.text
      if (text.trim() !== "") out.push({ ...segment, text })
    }
  }
  return out
}

/**
 * Merges tracks into one transcript by time. Speakers overlap in real calls,
 * but a transcript's segments may not: a segment starting inside the previous
 * one is moved to its end.
 */
export const mergeTracks = (
  tracks: ReadonlyArray<{ readonly segments: ReadonlyArray<HeardSegment>; readonly speakerOf: (label: string | null) => string }>
): ReadonlyArray<Segment> => {
  const all = tracks
    .flatMap((track) => track.segments.map((segment) => ({ ...segment, speaker: track.speakerOf(segment.speaker) })))
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
  const out: Array<Segment> = []
  let previousEnd = 0
  for (const segment of all) {
    const startMs = Math.max(segment.startMs, previousEnd)
    const endMs = Math.max(segment.endMs, startMs)
    out.push({ speaker: segment.speaker.slice(0, 200), startMs, endMs, text: segment.text.slice(0, 20_000) })
    previousEnd = endMs
  }
  return out
}

/** Engine labels ("0", "SPEAKER_01") as people read them: "Speaker 1", "Speaker 2", in order of first appearance. */
export const engineSpeakers = () => {
  const seen = new Map<string, string>()
  return (label: string | null): string => {
    if (label === null) return "Speaker"
    let name = seen.get(label)
    if (name === undefined) seen.set(label, (name = `Speaker ${seen.size + 1}`))
    return name
  }
}
