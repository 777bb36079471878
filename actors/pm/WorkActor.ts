/**
 * How the work hierarchy's actors are built: each actor kind (workspace,
 * space, list, task) is a single writer over the relational rows it owns.
 * Its messages are commands from a table; every command runs inside
 * `ChangeLog.transact`, so the rows and the change events commit together,
 * and the actor's mailbox serializes concurrent commands on one entity.
 *
 * State stays empty on purpose: the rows are the truth (reads query SQL
 * directly), the actor exists for serialization.
 */
import { Effect, Schema } from "effect"
import type { BlobStore } from "../../persistence/BlobStore.ts"
import type { Sql, SqlError } from "../../persistence/Sql.ts"
import { Actor, type ActorKind } from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import { type Change, ChangeLog } from "./ChangeLog.ts"

export interface Outcome<A> {
  readonly result: A
  readonly changes: ReadonlyArray<Change>
}

/** A command: `input` as the facade validated it, `by` the acting user, `id` the owning actor's id. */
export type Command<I, A> = (input: I, by: string, id: string) => Effect.Effect<Outcome<A>, Rejection | SqlError, Sql | BlobStore>

export type CommandTable = Record<string, Command<any, any>>

type InputOf<C> = C extends Command<infer I, any> ? I : never
type ResultOf<C> = C extends Command<any, infer A> ? A : never

export interface WorkActor<T extends CommandTable> extends ActorKind {
  readonly commands: T
}

/**
 * Inputs and results travel as JSON text: the same bytes in-process and over
 * NATS (where every payload must be JSON), with undefined fields dropped the
 * same way in both.
 */
const RunCommand = Schema.Struct({ command: Schema.String, by: Schema.String, input: Schema.String })

/** SQL failures that are the caller's conflict, not a defect: unique and foreign-key violations. */
const fromSqlError = (error: SqlError) =>
  error.code === "23505"
    ? Effect.fail(reject("conflict", "That name or item already exists here"))
    : error.code === "23503"
    ? Effect.fail(reject("conflict", "A referenced item no longer exists"))
    : Effect.die(error)

export const workActor = <T extends CommandTable>(kind: string, commands: T): WorkActor<T> => {
  const actor = Actor<null>()({
    kind,
    state: Schema.Null,
    initial: () => null,
    messages: { run: { payload: RunCommand, success: Schema.String } },
    handlers: {
      run: ({ command, by, input }, ctx) => {
        const run = Object.hasOwn(commands, command) ? commands[command] : undefined
        if (run === undefined) return Effect.fail(reject("invalid", `Unknown command "${command}" for ${kind}`))
        return ChangeLog.use((log) => log.transact(run(JSON.parse(input), by, ctx.address.id))).pipe(
          Effect.map((result) => JSON.stringify(result ?? null)),
          Effect.catchTag("SqlError", fromSqlError)
        )
      }
    }
  })
  return Object.assign(actor, { commands })
}

/** Asks the owning actor to run one command; the result type follows the command. */
export const send = <T extends CommandTable, K extends keyof T & string>(
  actor: WorkActor<T>,
  id: string,
  command: K,
  by: string,
  input: InputOf<T[K]>
): Effect.Effect<ResultOf<T[K]>, Rejection | ActorError, ActorSystem> =>
  ActorSystem.use((system) =>
    Effect.map(system.ask(actor, id, "run", { command, by, input: JSON.stringify(input ?? null) }), (text) => JSON.parse(text as string))) as Effect.Effect<
    ResultOf<T[K]>,
    Rejection | ActorError,
    ActorSystem
  >
