/**
 * When live editing becomes a version: at most one automatic version per
 * page per interval, taken at the end of the interval that started with the
 * first change after the last version (so it holds that window's edits).
 * `WIKI_VERSION_INTERVAL_SECONDS` (default 600) sets the interval.
 */
const DEFAULT_SECONDS = 600

export const autosaveIntervalMillis = (env: NodeJS.ProcessEnv = process.env): number => {
  const raw = env.WIKI_VERSION_INTERVAL_SECONDS
  const seconds = raw === undefined || raw === "" ? DEFAULT_SECONDS : Number(raw)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_SECONDS * 1000
}
