/** The configured speech engine (see SpeechEngine.ts), or null when STT_BASE_URL is not set. */
import { deepgramListen } from "./DeepgramListen.ts"
import { openAiTranscriptions } from "./OpenAiTranscriptions.ts"
import { type SpeechEngine, speechConfigFromEnv } from "./SpeechEngine.ts"

export const speechEngineFromEnv = (env: NodeJS.ProcessEnv = process.env): SpeechEngine | null => {
  const config = speechConfigFromEnv(env)
  if (config === null) return null
  return config.engine === "deepgram" ? deepgramListen(config) : openAiTranscriptions(config)
}
