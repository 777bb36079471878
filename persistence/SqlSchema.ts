/**
 * Typed queries: a query is declared with a `Request` schema (what the caller
 * passes, encoded into the statement's parameters) and a `Result` schema (one
 * row), instead of a hand-written row interface that nothing checks. A row
 * that does not fit its schema is a defect (the stored data or the statement
 * is wrong), not a failure the caller could handle.
 */
import { Effect, Schema } from "effect"
import { query, type Sql, type SqlError } from "./Sql.ts"

interface Declaration<I, A, Encoded> {
  readonly Request: Schema.Codec<I, Encoded, never, never>
  readonly Result: Schema.Codec<A, any, never, never>
  /** The statement and its parameters, from the encoded request. */
  readonly execute: (request: Encoded) => readonly [text: string, params: ReadonlyArray<unknown>]
}

const run = <I, A, E>(declaration: Declaration<I, A, E>) => {
  const encode = Schema.encodeEffect(declaration.Request)
  const decode = Schema.decodeUnknownEffect(Schema.Array(declaration.Result))
  return (request: I): Effect.Effect<ReadonlyArray<A>, SqlError, Sql> =>
    encode(request).pipe(
      Effect.orDie,
      Effect.flatMap((encoded) => query(...declaration.execute(encoded))),
      Effect.flatMap((rows) => Effect.orDie(decode(rows)))
    )
}

/** Every row of the result. */
export const findAll = <I, A, E>(declaration: Declaration<I, A, E>) => run(declaration)

/** The first row of the result, if any. */
export const findOne = <I, A, E>(declaration: Declaration<I, A, E>) => {
  const all = run(declaration)
  return (request: I): Effect.Effect<A | undefined, SqlError, Sql> => Effect.map(all(request), (rows) => rows[0])
}
