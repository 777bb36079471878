/**
 * The OpenAI-compatible transcription protocol (`POST {base}/v1/audio/transcriptions`,
 * multipart), which OpenAI, Groq, LocalAI, speaches and whisper.cpp's
 * compatible servers accept: `verbose_json` with segment timestamps, and a
 * `speaker` per segment when the server diarizes.
 */
import { Effect, Schema } from "effect"
import { failureOf, type SpeechConfig, type SpeechEngine, SpeechRefused, SpeechUnavailable } from "./SpeechEngine.ts"

const VerboseJson = Schema.Struct({
  segments: Schema.Array(
    Schema.Struct({
      start: Schema.Number,
      end: Schema.Number,
      text: Schema.String,
      speaker: Schema.optional(Schema.Union([Schema.String, Schema.Number]))
    })
  )
})
const decode = Schema.decodeUnknownEffect(VerboseJson)

export const openAiTranscriptions = (config: SpeechConfig): SpeechEngine => ({
  config,
  source: `openai-compatible:${config.baseUrl}:${config.model}:${config.language ?? "auto"}`,
  maxChunkBytes: 24 * 1024 * 1024,
  transcribe: (wav, { prompt }) =>
    Effect.gen(function* () {
      const form = new FormData()
      form.set("file", new Blob([wav], { type: "audio/wav" }), "chunk.wav")
      form.set("model", config.model)
      form.set("response_format", "verbose_json")
      form.append("timestamp_granularities[]", "segment")
      if (config.language !== null) form.set("language", config.language)
      if (prompt !== null && prompt !== "") form.set("prompt", prompt)
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(`${config.baseUrl}/v1/audio/transcriptions`, {
            method: "POST",
            signal,
            headers: config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` },
            body: form
          }),
        catch: (error) =>
          new SpeechUnavailable({
            message: `The transcription engine at ${config.baseUrl} could not be reached: ${String(error)}`,
            retryAfterMs: null
          })
      })
      if (!response.ok) {
        const detail = yield* Effect.promise(() => response.text().catch(() => ""))
        return yield* Effect.fail(failureOf("The transcription engine", response.status, response.headers.get("retry-after"), detail))
      }
      const body = yield* Effect.tryPromise({
        try: () => response.json(),
        catch: () => new SpeechRefused({ message: "The transcription engine's answer is not JSON" })
      })
      const verbose = yield* Effect.mapError(
        decode(body),
        () => new SpeechRefused({ message: "The transcription engine's answer has no segments (response_format=verbose_json)" })
      )
      return verbose.segments
        .map((segment) => ({
          startMs: Math.round(segment.start * 1000),
          endMs: Math.round(segment.end * 1000),
          text: segment.text.trim(),
          speaker: segment.speaker === undefined ? null : String(segment.speaker)
        }))
        .filter((segment) => segment.text !== "")
    })
})
