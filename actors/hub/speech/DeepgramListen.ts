/**
 * Deepgram's pre-recorded protocol (`POST {base}/v1/listen` with the audio as
 * the body, `Authorization: Token …`), asked to diarize and to group words
 * into utterances: each utterance is a segment with the speaker Deepgram
 * heard, so speakers come from the engine.
 */
import { Effect, Schema } from "effect"
import { failureOf, type SpeechConfig, type SpeechEngine, SpeechRefused, SpeechUnavailable } from "./SpeechEngine.ts"

const Listen = Schema.Struct({
  results: Schema.Struct({
    utterances: Schema.Array(
      Schema.Struct({ start: Schema.Number, end: Schema.Number, transcript: Schema.String, speaker: Schema.optional(Schema.Number) })
    )
  })
})
const decode = Schema.decodeUnknownEffect(Listen)

export const deepgramListen = (config: SpeechConfig): SpeechEngine => ({
  config,
  source: `deepgram:${config.baseUrl}:${config.model}:${config.language ?? "auto"}`,
  // Deepgram accepts up to 2 GB; chunks stay small so a failed one costs little to resend.
  maxChunkBytes: 64 * 1024 * 1024,
  transcribe: (wav, { prompt }) =>
    Effect.gen(function* () {
      const query = new URLSearchParams({
        model: config.model,
        diarize: "true",
        utterances: "true",
        punctuate: "true",
        smart_format: "true"
      })
      if (config.language !== null) query.set("language", config.language)
      // Deepgram has no free-text prompt; the known names and terms become keyterms.
      for (const term of (prompt ?? "")
        .split(/,\s*/)
        .filter((t) => t !== "")
        .slice(0, 50))
        query.append("keyterm", term)
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          fetch(`${config.baseUrl}/v1/listen?${query}`, {
            method: "POST",
            signal,
            headers: { "content-type": "audio/wav", ...(config.apiKey === null ? {} : { authorization: `Token ${config.apiKey}` }) },
            body: wav
          }),
        catch: (error) =>
          new SpeechUnavailable({ message: `Deepgram at ${config.baseUrl} could not be reached: ${String(error)}`, retryAfterMs: null })
      })
      if (!response.ok) {
        const detail = yield* Effect.promise(() => response.text().catch(() => ""))
        return yield* Effect.fail(failureOf("Deepgram", response.status, response.headers.get("retry-after"), detail))
      }
      const body = yield* Effect.tryPromise({
        try: () => response.json(),
        catch: () => new SpeechRefused({ message: "Deepgram's answer is not JSON" })
      })
      const listen = yield* Effect.mapError(
        decode(body),
        () => new SpeechRefused({ message: "Deepgram's answer has no utterances (utterances=true)" })
      )
      return listen.results.utterances
        .map((utterance) => ({
          startMs: Math.round(utterance.start * 1000),
          endMs: Math.round(utterance.end * 1000),
          text: utterance.transcript.trim(),
          speaker: utterance.speaker === undefined ? null : String(utterance.speaker)
        }))
        .filter((segment) => segment.text !== "")
    })
})
