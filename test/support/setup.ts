/**
 * Runs before every test file. Files share worker processes (`isolate: false`
 * in vitest.config.ts), and several set `process.env` options at their top
 * without restoring them, so each file starts from the environment the worker
 * started with.
 */
const ownedByVitest = (key: string) => key.startsWith("VITEST")

const holder = globalThis as { __atriumPristineEnv?: Record<string, string | undefined> }
const pristine = (holder.__atriumPristineEnv ??= { ...process.env })
for (const key of Object.keys(process.env)) {
  if (!ownedByVitest(key) && !(key in pristine)) delete process.env[key]
}
for (const [key, value] of Object.entries(pristine)) {
  if (!ownedByVitest(key) && process.env[key] !== value) process.env[key] = value
}
