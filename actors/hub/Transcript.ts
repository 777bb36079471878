/**
 * Transcripts: segments `{speaker, startMs, endMs, text}` and the three ways
 * to import them (JSON segments, WebVTT, SRT). A parser either returns every
 * segment or refuses with a 400 naming the cue and the problem, so nothing is
 * ever half-imported.
 */
import { Effect, Schema } from "effect"
import { reject, type Rejection } from "../../runtime/Rejection.ts"

export const Segment = Schema.Struct({
  speaker: Schema.String.check(Schema.isMaxLength(200)),
  startMs: Schema.Number.check(Schema.isInt()),
  endMs: Schema.Number.check(Schema.isInt()),
  text: Schema.String.check(Schema.isMaxLength(20_000))
}).annotate({ identifier: "TranscriptSegment" })
export type Segment = typeof Segment.Type

/** The largest transcript text accepted (characters), and the most segments. */
export const MAX_TRANSCRIPT_CHARS = 2_000_000
export const MAX_SEGMENTS = 20_000

export const TranscriptFormat = Schema.Literals(["segments", "vtt", "srt"])

export const TranscriptInput = Schema.Struct({
  format: TranscriptFormat,
  segments: Schema.optionalKey(Schema.Array(Segment).check(Schema.isMaxLength(MAX_SEGMENTS))),
  text: Schema.optionalKey(Schema.String)
}).annotate({
  identifier: "TranscriptInput",
  description: "`segments` for format segments; `text` (the file's content) for vtt and srt."
})
export type TranscriptInput = typeof TranscriptInput.Type

const invalid = (path: string, message: string): Rejection => reject("invalid", `Transcript refused: ${message}`, [{ path, message }])

/** Timestamps must be non-negative, end after start, and cues in order without overlapping: the first problem, if any. */
export const segmentProblem = (
  segments: ReadonlyArray<Segment>,
  path: string
): { readonly path: string; readonly problem: string } | undefined => {
  let previousEnd = 0
  for (const [index, segment] of segments.entries()) {
    const at = `${path}[${index}]`
    if (segment.startMs < 0 || segment.endMs < 0) return { path: at, problem: `segment ${index + 1} has a negative timestamp` }
    if (segment.endMs < segment.startMs) return { path: at, problem: `segment ${index + 1} ends before it starts` }
    if (segment.startMs < previousEnd)
      return {
        path: at,
        problem: `segment ${index + 1} overlaps the one before it (starts at ${segment.startMs} ms, before ${previousEnd} ms)`
      }
    previousEnd = segment.endMs
  }
  return undefined
}

export const checkSegments = (segments: ReadonlyArray<Segment>, path: string): Effect.Effect<ReadonlyArray<Segment>, Rejection> => {
  const found = segmentProblem(segments, path)
  return found === undefined ? Effect.succeed(segments) : Effect.fail(invalid(found.path, found.problem))
}

const TIME = /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)[.,](\d{3})$/

const parseTime = (text: string): number | undefined => {
  const match = TIME.exec(text.trim())
  if (match === null) return undefined
  return ((Number(match[1] ?? 0) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000 + Number(match[4])
}

/** `<v Speaker>text` (WebVTT voice) or `Speaker: text`. */
const speakerOf = (line: string): { speaker: string; text: string } => {
  const voice = /^<v(?:\.[^ >]*)?\s+([^>]+)>(.*?)(?:<\/v>)?$/.exec(line)
  if (voice) return { speaker: voice[1]!.trim(), text: voice[2]!.trim() }
  const named = /^([A-Z][\w .'-]{0,60}):\s+(.+)$/.exec(line)
  if (named) return { speaker: named[1]!.trim(), text: named[2]!.trim() }
  return { speaker: "", text: line.trim() }
}

/** Cue blocks separated by blank lines; each has an optional id line, a timing line, then text. */
const parseCues = (text: string, format: "vtt" | "srt"): Effect.Effect<ReadonlyArray<Segment>, Rejection> =>
  Effect.suspend(() => {
    const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")
    const blocks = normalized.split(/\n{2,}/).map((block) => block.trim())
    if (format === "vtt") {
      if (!/^WEBVTT(?:[ \t].*)?$/.test(blocks[0]?.split("\n")[0] ?? ""))
        return Effect.fail(invalid("body.transcript.text", "a WebVTT file starts with the line WEBVTT"))
      blocks.shift()
    }
    const segments: Array<Segment> = []
    for (const block of blocks) {
      if (block === "" || /^(?:NOTE|STYLE|REGION)\b/.test(block)) continue
      const lines = block.split("\n")
      const timingIndex = lines.findIndex((line) => line.includes("-->"))
      const cue = segments.length + 1
      if (timingIndex < 0 || timingIndex > 1)
        return Effect.fail(invalid("body.transcript.text", `cue ${cue} has no timing line ("00:00:01.000 --> 00:00:02.000")`))
      if (format === "srt" && timingIndex === 1 && !/^\d+$/.test(lines[0]!.trim()))
        return Effect.fail(invalid("body.transcript.text", `cue ${cue} has "${lines[0]!.slice(0, 40)}" where its number should be`))
      const [from, rest] = lines[timingIndex]!.split("-->")
      const startMs = parseTime(from ?? "")
      const endMs = parseTime((rest ?? "").trim().split(/\s+/)[0] ?? "")
      if (startMs === undefined || endMs === undefined) {
        return Effect.fail(
          invalid(
            "body.transcript.text",
            `cue ${cue} has a broken timing line "${lines[timingIndex]!.slice(0, 60)}" (expected HH:MM:SS.mmm --> HH:MM:SS.mmm)`
          )
        )
      }
      const body = lines.slice(timingIndex + 1).filter((line) => line.trim() !== "")
      if (body.length === 0) return Effect.fail(invalid("body.transcript.text", `cue ${cue} has no text`))
      const { speaker, text: first } = speakerOf(body[0]!)
      const textOf = [first, ...body.slice(1).map((line) => line.trim())].join(" ").replace(/<[^>]+>/g, "")
      segments.push({ speaker, startMs, endMs, text: textOf })
    }
    if (segments.length === 0) return Effect.fail(invalid("body.transcript.text", "the file holds no cues"))
    return checkSegments(segments, "body.transcript.text.cues")
  })

/** The segments of an imported transcript, or a refusal naming the problem (400) or its size (413). */
export const parseTranscript = (input: TranscriptInput, path = "body.transcript"): Effect.Effect<ReadonlyArray<Segment>, Rejection> => {
  if (input.format === "segments") {
    if (input.segments === undefined) return Effect.fail(invalid(`${path}.segments`, "format segments needs `segments`"))
    if (input.text !== undefined) return Effect.fail(invalid(`${path}.text`, "format segments takes `segments`, not `text`"))
    const size = input.segments.reduce((total, segment) => total + segment.text.length, 0)
    if (size > MAX_TRANSCRIPT_CHARS)
      return Effect.fail(
        reject("too_large", `The transcript exceeds ${MAX_TRANSCRIPT_CHARS} characters`, [
          { path: `${path}.segments`, message: "too large" }
        ])
      )
    return checkSegments(input.segments, `${path}.segments`)
  }
  if (input.text === undefined) return Effect.fail(invalid(`${path}.text`, `format ${input.format} needs \`text\` (the file's content)`))
  if (input.segments !== undefined)
    return Effect.fail(invalid(`${path}.segments`, `format ${input.format} takes \`text\`, not \`segments\``))
  if (input.text.length > MAX_TRANSCRIPT_CHARS)
    return Effect.fail(
      reject("too_large", `The transcript exceeds ${MAX_TRANSCRIPT_CHARS} characters`, [{ path: `${path}.text`, message: "too large" }])
    )
  return parseCues(input.text, input.format).pipe(
    Effect.mapError((rejection) =>
      rejection.details
        ? reject(
            rejection.code,
            rejection.message,
            rejection.details.map((d) => ({ ...d, path: d.path.replace("body.transcript", path) }))
          )
        : rejection
    ),
    Effect.flatMap((segments) =>
      segments.length > MAX_SEGMENTS ? Effect.fail(invalid(`${path}.text`, `more than ${MAX_SEGMENTS} cues`)) : Effect.succeed(segments)
    )
  )
}

/** Plain text of a transcript (speaker: text per segment). */
export const transcriptText = (segments: ReadonlyArray<Segment>): string =>
  segments.map((segment) => (segment.speaker ? `${segment.speaker}: ${segment.text}` : segment.text)).join("\n")
