/**
 * Logging for code that runs outside an Effect (socket callbacks, library
 * hooks): the same Effect logger, annotations and levels as everything else,
 * so there is one logging path and no stray `console.*` in library code.
 */
import { Cause, Effect } from "effect"

const causeOf = (error: unknown) => (error === undefined ? undefined : Cause.pretty(Cause.die(error)))

const emit = (log: (...message: ReadonlyArray<unknown>) => Effect.Effect<void>, scope: string, message: string, error?: unknown) => {
  const cause = causeOf(error)
  Effect.runFork(Effect.annotateLogs(cause === undefined ? log(message) : log(message, cause), "scope", scope))
}

export const logError = (scope: string, message: string, error?: unknown): void => emit(Effect.logError, scope, message, error)

export const logWarning = (scope: string, message: string, error?: unknown): void => emit(Effect.logWarning, scope, message, error)
