/**
 * wink-nlp with its English model (shipped inside the npm package), loaded on
 * first use and shared: importing and reading the model costs about 0.15 s of
 * CPU, and most processes never summarize a call or weigh a question. Both
 * packages are CommonJS, so `require` loads them synchronously.
 */
import { createRequire } from "node:module"
import type winkNLP from "wink-nlp"

export type EnglishNlp = ReturnType<typeof winkNLP>

const instances = new Map<string, EnglishNlp>()

/** One instance per pipeline (`["sbd", "pos"]` skips the entity and negation stages); every stage when none is given. */
export const englishNlp = (pipeline?: ReadonlyArray<string>): EnglishNlp => {
  const key = pipeline?.join(",") ?? "*"
  let nlp = instances.get(key)
  if (nlp === undefined) {
    const require = createRequire(import.meta.url)
    const make = require("wink-nlp") as typeof winkNLP
    nlp = make(require("wink-eng-lite-web-model"), pipeline === undefined ? undefined : [...pipeline])
    instances.set(key, nlp)
  }
  return nlp
}
