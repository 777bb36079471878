/**
 * The fence check every actor transaction starts with (see
 * `runtime/ShardFences.ts`), and the timeouts that keep a stalled owner from
 * blocking the next owner's epoch bump for long.
 *
 * @internal
 */

/**
 * A statement of an actor transaction running longer than this is cancelled,
 * and a transaction left idle (its process paused, its packets held) this
 * long is ended by the server: both release the row lock the next owner's
 * bump waits for. Well below the 10 s request deadline.
 */
export const statementTimeoutMillis = 5000
export const idleInTransactionTimeoutMillis = 5000

/** How long an epoch bump waits for the former owner's transactions before giving up (and retrying next round). */
export const acquireTimeoutMillis = 2 * Math.max(statementTimeoutMillis, idleInTransactionTimeoutMillis)

/**
 * The first statement of a fenced transaction: locks the shard's epoch row
 * against a bump until COMMIT, returns the epoch, and sets the transaction's
 * timeouts (`set_config(…, true)` is SET LOCAL) in the same round trip.
 */
export const checkStatement = `select epoch, set_config('statement_timeout', $2, true), set_config('idle_in_transaction_session_timeout', $3, true)
  from shard_epochs where shard = $1 for share`

export const checkParams = (shard: number): ReadonlyArray<unknown> => [
  shard,
  String(statementTimeoutMillis),
  String(idleInTransactionTimeoutMillis)
]

/**
 * The check of a transaction of keyed messages (see `runtime/RequestLog.ts`):
 * records their idempotency keys (`$4`, a JSON array) in the same round trip,
 * so they commit exactly when the transaction's writes do. A reply known
 * already (a persisted kind's save) is recorded with them; one recorded
 * earlier is never cleared.
 */
export const checkAndRecordStatement = `with recorded as (
    insert into actor_requests (key, kind, actor_id, reply)
    select r.key, r.kind, r.actor_id, r.reply from jsonb_to_recordset($4::jsonb) as r(key text, kind text, actor_id text, reply text)
    on conflict (key) do update set reply = excluded.reply where excluded.reply is not null
  )
  ${checkStatement}`

export const checkAndRecordParams = (
  shard: number,
  requests: ReadonlyArray<{ readonly key: string; readonly kind: string; readonly id: string; readonly reply: string | undefined }>
): ReadonlyArray<unknown> => [
  ...checkParams(shard),
  requests.map((r) => ({ key: r.key, kind: r.kind, actor_id: r.id, reply: r.reply ?? null }))
]

const readOnlyStart = /^\s*(select|with|values|show|explain|table)\b/i
const modifying = /\b(insert|update|delete|merge|nextval|setval)\b/i

/**
 * Whether a statement may write: anything but a plain read. Errs on the safe
 * side (a SELECT mentioning `update` in a literal is fenced too, which only costs
 * a round trip).
 */
export const mayWrite = (text: string): boolean => !readOnlyStart.test(text) || modifying.test(text)
