/**
 * When a digest is due: 08:00 on the user's clock (daily), or on their next
 * Monday (weekly). Time zones through Intl, so any IANA name Node knows works;
 * an unknown one reads as UTC.
 */
const MORNING_HOUR = 8

const partsFormatter = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (timeZone: string) => {
  let formatter = partsFormatter.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short"
    })
    partsFormatter.set(timeZone, formatter)
  }
  return formatter
}

const validZone = (timeZone: string) => {
  try {
    formatterFor(timeZone)
    return timeZone
  } catch {
    return "UTC"
  }
}

const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

/** The wall clock in `timeZone` at `at`, as if it were UTC (and the weekday, 0 = Sunday). */
const wallClock = (at: number, timeZone: string) => {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value])
  )
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second)
  )
  return { wall, weekday: weekdays.indexOf(parts.weekday ?? "Sun") }
}

/** The instant at which `timeZone`'s clock shows the wall time `wall` (given as if UTC). */
const instantOf = (wall: number, timeZone: string) => {
  let guess = wall
  // Two rounds settle the offset, also across a daylight-saving change.
  for (let i = 0; i < 2; i++) guess = wall - (wallClock(guess, timeZone).wall - guess)
  return guess
}

const DAY = 86_400_000

/** The first 08:00 local strictly after `after` (weekly: the first such Monday). */
export const nextMorning = (after: number, timeZone: string, cadence: "daily" | "weekly"): number => {
  const zone = validZone(timeZone)
  const { wall, weekday } = wallClock(after, zone)
  const midnight = Math.floor(wall / DAY) * DAY
  let morning = midnight + MORNING_HOUR * 3_600_000
  if (morning <= wall) morning += DAY
  if (cadence === "weekly") {
    const day = (weekday + Math.round((morning - midnight - MORNING_HOUR * 3_600_000) / DAY)) % 7
    morning += ((1 - day + 7) % 7) * DAY
  }
  return instantOf(morning, zone)
}
