/**
 * Which request headers reach a handler. Copying every header of every
 * request into an object cost 10–25% of the bare uWS request rate (same-run
 * A/B), for the dozen operations that read one, so a request carries only
 * the headers its operation declares (`Contract.headers`), the
 * `Idempotency-Key` where that applies, and the credentials shared helpers
 * check for any operation (`X-Internal-Key`). The rest are read where the
 * server needs them (authorization, content type…) and never copied.
 */
import * as IdempotencyKey from "./IdempotencyKey.ts"
import { INTERNAL_KEY_HEADER } from "./InternalKeys.ts"
import type { AnyOperation } from "./Operation.ts"

/** Checked by helpers any operation may call (`requireInternalKey`), which treat an empty value as none. */
const credentials: ReadonlyArray<string> = [INTERNAL_KEY_HEADER]

/** What a request offers: uWS's request during the handler's synchronous part. */
export interface HeaderSource {
  /** The value, or "" when absent (or not valid UTF-8). */
  readonly getHeader: (name: string) => string
  readonly forEach: (callback: (name: string, value: string) => void) => void
}

/** The headers `operation` declares beyond the credentials (lower-case), or undefined when none. */
const declared = new WeakMap<AnyOperation, ReadonlySet<string> | null>()

const declaredBy = (operation: AnyOperation): ReadonlySet<string> | undefined => {
  let names = declared.get(operation)
  if (names === undefined) {
    const wanted = [
      ...(operation.headers ?? []).map((name) => name.toLowerCase()),
      ...(IdempotencyKey.appliesTo(operation) ? ["idempotency-key"] : [])
    ]
    names = wanted.length === 0 ? null : new Set([...credentials, ...wanted])
    declared.set(operation, names)
  }
  return names ?? undefined
}

/**
 * The headers `operation`'s handler gets in `context.headers`. Declared ones are copied as sent (present but
 * empty stays present: an empty Idempotency-Key is refused, not ignored; repeated ones joined with ", "), by one
 * pass over the request's headers; an operation that declares none costs a lookup per credential.
 */
export const headersFor = (operation: AnyOperation, request: HeaderSource): Record<string, string> => {
  const headers: Record<string, string> = {}
  const names = declaredBy(operation)
  if (names === undefined) {
    for (const name of credentials) {
      const value = request.getHeader(name)
      if (value !== "") headers[name] = value
    }
    return headers
  }
  request.forEach((name, value) => {
    if (names.has(name)) headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  })
  return headers
}
