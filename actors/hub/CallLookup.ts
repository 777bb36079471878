/**
 * Call id and call UUID → recording id. The mapping never changes once a row
 * exists, so it is cached; the call actor (keyed by recording id) answers
 * everything else.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"

const CACHE_LIMIT = 100_000
const byCallId = new Map<number, number>()
const byUuid = new Map<string, number>()

const remember = <K>(cache: Map<K, number>, key: K, value: number) => {
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(key, value)
  return value
}

const missing = () => reject("not_found", "No such call")

export const recordingIdOfCall = (callId: number) =>
  byCallId.has(callId)
    ? Effect.succeed(byCallId.get(callId)!)
    : Effect.flatMap(Effect.orDie(query<{ id: number }>(`SELECT id FROM hub_recordings WHERE call_id = $1`, [callId])), ([row]) =>
        row ? Effect.succeed(remember(byCallId, callId, Number(row.id))) : Effect.fail(missing())
      )

export const recordingIdOfUuid = (callUuid: string) =>
  byUuid.has(callUuid)
    ? Effect.succeed(byUuid.get(callUuid)!)
    : Effect.flatMap(Effect.orDie(query<{ id: number }>(`SELECT id FROM hub_recordings WHERE call_uuid = $1`, [callUuid])), ([row]) =>
        row ? Effect.succeed(remember(byUuid, callUuid, Number(row.id))) : Effect.fail(missing())
      )
