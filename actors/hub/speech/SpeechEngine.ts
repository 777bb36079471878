/**
 * The speech-to-text port: one audio chunk in (16 kHz mono WAV), timed
 * segments out, with the engine's speaker labels when it can tell them.
 * Adapters speak a vendor's real protocol to `STT_BASE_URL`; which one runs
 * is `STT_ENGINE` (`openai-compatible`, the default, or `deepgram`). Without
 * `STT_BASE_URL` there is no engine, and recordings say so.
 */
import { Schema } from "effect"
import type { Effect } from "effect"

/** A segment as an engine returns it, relative to the chunk it was sent. */
export interface HeardSegment {
  readonly startMs: number
  readonly endMs: number
  readonly text: string
  /** The engine's own label ("0", "SPEAKER_01"), when it diarizes. */
  readonly speaker: string | null
}

/** The engine could not answer now (429, 5xx, unreachable): try again, after `retryAfterMs` when it said. */
export class SpeechUnavailable extends Schema.TaggedError<SpeechUnavailable>()("SpeechUnavailable", {
  message: Schema.String,
  retryAfterMs: Schema.NullOr(Schema.Number)
}) {}

/** The engine refused the request or answered something unreadable: retrying the same chunk will not help. */
export class SpeechRefused extends Schema.TaggedError<SpeechRefused>()("SpeechRefused", { message: Schema.String }) {}

export type SpeechError = SpeechUnavailable | SpeechRefused

export const EngineName = Schema.Literals(["openai-compatible", "deepgram"])
export type EngineName = typeof EngineName.Type

export interface SpeechConfig {
  readonly engine: EngineName
  readonly baseUrl: string
  readonly apiKey: string | null
  readonly model: string
  readonly language: string | null
}

export interface SpeechEngine {
  readonly config: SpeechConfig
  /** Names what produced a transcript: a different engine, model or language re-transcribes on a full reprocess. */
  readonly source: string
  /** The largest chunk the engine accepts, in bytes (OpenAI's limit is 25 MB). */
  readonly maxChunkBytes: number
  readonly transcribe: (
    wav: Uint8Array,
    options: { readonly prompt: string | null }
  ) => Effect.Effect<ReadonlyArray<HeardSegment>, SpeechError>
}

export const NOT_CONFIGURED =
  "No transcription engine is configured: import a transcript (replaceRecordingTranscript), or set STT_BASE_URL (and STT_ENGINE, STT_API_KEY, STT_MODEL) and reprocess the recording"

const defaultModel: Record<EngineName, string> = { "openai-compatible": "whisper-1", deepgram: "nova-3" }

/** The configuration from the environment, or null when no engine is configured; a wrong STT_ENGINE is an error. */
export const speechConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): SpeechConfig | null => {
  const baseUrl = env.STT_BASE_URL?.trim()
  if (!baseUrl) return null
  const engine = env.STT_ENGINE?.trim() || "openai-compatible"
  if (!Schema.is(EngineName)(engine)) throw new Error(`STT_ENGINE must be "openai-compatible" or "deepgram", got "${engine}"`)
  return {
    engine,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    apiKey: env.STT_API_KEY?.trim() || null,
    model: env.STT_MODEL?.trim() || defaultModel[engine],
    language: env.STT_LANGUAGE?.trim() || null
  }
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
export const retryAfterMillis = (header: string | null): number | null => {
  if (header === null || header.trim() === "") return null
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now())
}

/** An HTTP answer that is not a transcript: 429 and 5xx are worth retrying, the rest are not. */
export const failureOf = (engine: string, status: number, retryAfter: string | null, detail: string): SpeechError =>
  status === 429 || status >= 500
    ? new SpeechUnavailable({ message: `${engine} answered ${status}`, retryAfterMs: retryAfterMillis(retryAfter) })
    : new SpeechRefused({ message: `${engine} refused the audio (${status}): ${detail.slice(0, 300)}` })
