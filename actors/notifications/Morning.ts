/**
 * When a digest is due: 08:00 on the user's clock (daily), or on their next
 * Monday (weekly). Wall clocks come from the calendar's zone conversion
 * (actors/hub/calendar/Recurrence.ts), so any IANA name Node knows works; an
 * unknown one reads as UTC.
 */
import { fromWall, toWall } from "../hub/calendar/Recurrence.ts"

const MORNING_HOUR = 8
const DAY = 86_400_000

const validZone = (timeZone: string) => {
  try {
    toWall(0, timeZone)
    return timeZone
  } catch {
    return "UTC"
  }
}

/** The first 08:00 local strictly after `after` (weekly: the first such Monday). */
export const nextMorning = (after: number, timeZone: string, cadence: "daily" | "weekly"): number => {
  const zone = validZone(timeZone)
  const wall = toWall(after, zone)
  let morning = Math.floor(wall / DAY) * DAY + MORNING_HOUR * 3_600_000
  if (morning <= wall) morning += DAY
  if (cadence === "weekly") morning += ((1 - new Date(morning).getUTCDay() + 7) % 7) * DAY
  return fromWall(morning, zone)
}
