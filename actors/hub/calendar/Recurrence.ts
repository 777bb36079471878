/**
 * The RRULE subset calendar events recur by (RFC 5545 §3.3.10): FREQ=DAILY,
 * WEEKLY or MONTHLY, INTERVAL, COUNT, UNTIL and BYDAY (with ordinals such as
 * `1MO` or `-1FR` for monthly rules), evaluated in UTC with weeks starting on
 * Monday, in the event's time zone: the rule repeats the start's wall-clock
 * time there (9:00 in Berlin stays 9:00 across daylight-saving changes). As
 * RFC 5545 says, the series start is always the first occurrence and counts
 * toward COUNT. Pure: no clock, no I/O.
 */

export type Frequency = "DAILY" | "WEEKLY" | "MONTHLY"

export interface WeekdayRule {
  /** 0 = Monday … 6 = Sunday. */
  readonly day: number
  /** Monthly rules: the n-th such weekday of the month (negative from the end); undefined: every one. */
  readonly ordinal?: number
}

export interface RecurrenceRule {
  readonly freq: Frequency
  readonly interval: number
  readonly count?: number
  /** Inclusive bound, epoch ms. */
  readonly until?: number
  readonly byDay: ReadonlyArray<WeekdayRule>
}

const DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const
const DAY_MS = 86_400_000
/** A series longer than this is refused: it keeps expansion bounded. */
export const MAX_COUNT = 1000
/** Periods looked at before expansion stops, whatever the rule (a guard, never reached by a valid rule). */
const MAX_PERIODS = 20_000

export type RuleProblem = { readonly message: string }

const parseUntil = (text: string): number | undefined => {
  const basic = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(text)
  if (basic) {
    const [, y, mo, d, h, mi, s] = basic
    const at =
      h === undefined
        ? Date.UTC(Number(y), Number(mo) - 1, Number(d), 23, 59, 59, 999)
        : Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
    return Number.isNaN(at) ? undefined : at
  }
  const iso = Date.parse(text)
  return Number.isNaN(iso) ? undefined : iso
}

/** Parses `FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10` (an `RRULE:` prefix is allowed). */
export const parseRule = (text: string): RecurrenceRule | RuleProblem => {
  const body = text.trim().replace(/^RRULE:/i, "")
  const parts = new Map<string, string>()
  for (const part of body.split(";")) {
    if (part === "") continue
    const [name, value, extra] = part.split("=")
    if (!name || value === undefined || extra !== undefined) return { message: `"${part}" is not NAME=VALUE` }
    const key = name.toUpperCase()
    if (parts.has(key)) return { message: `${key} is given twice` }
    parts.set(key, value.toUpperCase())
  }
  for (const key of parts.keys()) {
    if (!["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"].includes(key)) return { message: `${key} is not supported` }
  }
  const freq = parts.get("FREQ")
  if (freq !== "DAILY" && freq !== "WEEKLY" && freq !== "MONTHLY") return { message: "FREQ must be DAILY, WEEKLY or MONTHLY" }
  if (parts.has("WKST") && parts.get("WKST") !== "MO") return { message: "only WKST=MO is supported" }
  const interval = parts.has("INTERVAL") ? Number(parts.get("INTERVAL")) : 1
  if (!Number.isInteger(interval) || interval < 1 || interval > 366) return { message: "INTERVAL must be an integer from 1 to 366" }
  if (parts.has("COUNT") && parts.has("UNTIL")) return { message: "COUNT and UNTIL cannot both be given" }
  let count: number | undefined
  if (parts.has("COUNT")) {
    count = Number(parts.get("COUNT"))
    if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) return { message: `COUNT must be an integer from 1 to ${MAX_COUNT}` }
  }
  let until: number | undefined
  if (parts.has("UNTIL")) {
    until = parseUntil(parts.get("UNTIL")!)
    if (until === undefined) return { message: "UNTIL must be a date (YYYYMMDD) or a UTC date-time (YYYYMMDDTHHMMSSZ)" }
  }
  const byDay: Array<WeekdayRule> = []
  if (parts.has("BYDAY")) {
    for (const entry of parts.get("BYDAY")!.split(",")) {
      const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(entry)
      if (!match) return { message: `BYDAY entry "${entry}" is not a weekday code such as MO or 1MO` }
      const day = DAY_CODES.indexOf(match[2] as (typeof DAY_CODES)[number])
      if (match[1] === undefined) {
        byDay.push({ day })
        continue
      }
      const ordinal = Number(match[1])
      if (freq !== "MONTHLY") return { message: "BYDAY ordinals (e.g. 1MO) are only supported with FREQ=MONTHLY" }
      if (ordinal === 0 || Math.abs(ordinal) > 5) return { message: `BYDAY ordinal ${ordinal} must be from -5 to 5, not 0` }
      byDay.push({ day, ordinal })
    }
  }
  return { freq, interval, byDay, ...(count !== undefined ? { count } : {}), ...(until !== undefined ? { until } : {}) }
}

export const isProblem = (parsed: RecurrenceRule | RuleProblem): parsed is RuleProblem => "message" in parsed

/** Monday-based weekday of an epoch-ms instant, in UTC. */
const weekdayOf = (ms: number): number => (new Date(ms).getUTCDay() + 6) % 7
const timeOfDay = (ms: number): number => ms - Math.floor(ms / DAY_MS) * DAY_MS
const startOfDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS

/** Candidate starts of one period (ascending), before the COUNT/UNTIL/start filters. */
const candidates = (rule: RecurrenceRule, start: number, period: number): ReadonlyArray<number> => {
  const time = timeOfDay(start)
  if (rule.freq === "DAILY") {
    const day = startOfDay(start) + period * rule.interval * DAY_MS
    return rule.byDay.length === 0 || rule.byDay.some((d) => d.day === weekdayOf(day)) ? [day + time] : []
  }
  if (rule.freq === "WEEKLY") {
    const monday = startOfDay(start) - weekdayOf(start) * DAY_MS + period * rule.interval * 7 * DAY_MS
    const days = rule.byDay.length === 0 ? [weekdayOf(start)] : [...new Set(rule.byDay.map((d) => d.day))].sort((a, b) => a - b)
    return days.map((d) => monday + d * DAY_MS + time)
  }
  const first = new Date(start)
  const year = first.getUTCFullYear()
  const month = first.getUTCMonth() + period * rule.interval
  const monthStart = Date.UTC(year, month, 1)
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  if (rule.byDay.length === 0) {
    // A month without that day (the 31st in April) has no occurrence, as RFC 5545 says.
    const day = first.getUTCDate()
    return day <= daysInMonth ? [monthStart + (day - 1) * DAY_MS + time] : []
  }
  const found = new Set<number>()
  for (const rule_ of rule.byDay) {
    const matching: Array<number> = []
    for (let d = 0; d < daysInMonth; d++) if (weekdayOf(monthStart + d * DAY_MS) === rule_.day) matching.push(d)
    const picked =
      rule_.ordinal === undefined ? matching : [matching[rule_.ordinal > 0 ? rule_.ordinal - 1 : matching.length + rule_.ordinal]]
    for (const d of picked) if (d !== undefined) found.add(monthStart + d * DAY_MS + time)
  }
  return [...found].sort((a, b) => a - b)
}

const formats = new Map<string, Intl.DateTimeFormat>()
const formatOf = (timeZone: string) => {
  let format = formats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formats.set(timeZone, format)
  }
  return format
}

/** The zone's UTC offset (ms) at an instant. */
export const offsetAt = (ms: number, timeZone: string): number => {
  if (timeZone === "UTC") return 0
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)])
  )
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return wall - Math.floor(ms / 1000) * 1000
}

/** Wall-clock time in the zone, as if it were UTC. */
export const toWall = (ms: number, timeZone: string) => ms + offsetAt(ms, timeZone)
/** The instant of a wall-clock time in the zone (a time skipped by a clock change moves forward by the gap). */
export const fromWall = (wall: number, timeZone: string) => wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone)

/**
 * The occurrence starts of a series beginning at `start` (epoch ms) that fall
 * in [`from`, `to`), ascending, with the rule read in `timeZone` (IANA).
 * Without a rule the series is the one start.
 */
export const occurrenceStarts = (
  start: number,
  rule: RecurrenceRule | undefined,
  from: number,
  to: number,
  timeZone = "UTC"
): ReadonlyArray<number> => {
  if (rule === undefined) return start >= from && start < to ? [start] : []
  const wallStart = toWall(start, timeZone)
  const result: Array<number> = []
  let counted = 0
  const take = (at: number): boolean => {
    if (rule.until !== undefined && at > rule.until) return false
    counted++
    if (at >= from && at < to) result.push(at)
    return rule.count === undefined || counted < rule.count
  }
  if (!take(start)) return result
  for (let period = 0; period < MAX_PERIODS; period++) {
    for (const wall of candidates(rule, wallStart, period)) {
      if (wall <= wallStart) continue
      const at = fromWall(wall, timeZone)
      if (at >= to && rule.count === undefined) return result
      if (!take(at)) return result
    }
  }
  return result
}

/** Whether `at` is one of the series' occurrence starts. */
export const isOccurrence = (start: number, rule: RecurrenceRule | undefined, at: number, timeZone = "UTC"): boolean =>
  occurrenceStarts(start, rule, at, at + 1, timeZone).length === 1
