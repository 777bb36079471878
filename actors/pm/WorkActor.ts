/**
 * How project management's actors are built: each kind is the single writer
 * of the relational rows it owns, and its protocol is a set of commands, each
 * declared with Schemas — its input, its success, its errors — so in-process
 * asks pass values and only the NATS transport encodes, with the same
 * schemas. `workActor` turns the commands into an `ActorKind` whose messages
 * carry those schemas, so `send`, `read` and the kind's `client` are typed
 * from the kind itself.
 *
 * A command runs inside `ChangeLog.transact`: its rows and its change events
 * commit together. After the commit, before the reply, the live read models
 * (tasks, lists, spaces) whose shown state the change altered are invalidated
 * (`Staleness`), so a read that follows the acknowledged write is never stale.
 *
 * A kind may keep a read model: state rebuilt from its rows on activation
 * (`rebuild`), served from memory by its `reads`, and refreshed by each of its
 * commands (`afterCommand`; by default rebuilt before the next message).
 *
 * A kind may group commands (`group`): those queued together on one actor
 * run in one `ChangeLog.transact` (one transaction, one change-log append,
 * one commit), each answered after the commit with its own outcome. A member
 * refused before it wrote anything is simply answered with its refusal; one
 * refused after it wrote rolls the group back, which then runs again without
 * it, so nothing of a refused command is ever committed.
 */
import { Cause, Data, Effect, Exit, Schema } from "effect"
import type { BlobStore } from "../../persistence/BlobStore.ts"
import { mayModify, type Row, Sql, SqlError } from "../../persistence/Sql.ts"
import {
  Actor,
  type ActorContext,
  type ActorKind,
  type ErrorOf,
  type MessageSchemas,
  type SuccessOf,
  type TypedActorKind
} from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { type Change, ChangeLog } from "./ChangeLog.ts"
import { ItemExists, ReferenceGone } from "./PmErrors.ts"
import { type Stale, staleReadModels } from "./Staleness.ts"

export interface Outcome<A> {
  readonly result: A
  readonly changes: ReadonlyArray<Change>
}

/** What a command's body may fail with (`E`: its declared errors) and needs. */
export type CommandEffect<A, E> = Effect.Effect<Outcome<A>, E | SqlError, Sql | BlobStore | ActorSystem>

/**
 * One command of an actor's protocol: `run(input, by, id, state)` with `by`
 * the acting user, `id` the owning actor's id and `state` its read model (if
 * it keeps one; as of its last rebuild or command, so a command relying on it
 * verifies it in its transaction), failing with `error`'s values.
 */
export interface Command<I extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top, E extends Schema.Top = Schema.Top> {
  readonly input: I
  readonly success: S
  readonly error: E
  readonly run: (input: I["Type"], by: string, id: string, state?: unknown) => CommandEffect<S["Type"], E["Type"]>
  /** Runs consecutive messages of a group at once (see `batched`). */
  readonly runAll?: BatchRun<I, S, E>
  /** Which messages `runAll` takes (default: all); the others run alone. */
  readonly batchable?: (input: I["Type"]) => boolean
}

/**
 * Several messages of one command run at once, in the group's transaction: the outcome of each, in order.
 * Every refusal comes before the batch's first write (a refused message leaves nothing behind); failing
 * as a whole with a refusal runs the messages again one by one.
 */
export type BatchRun<I extends Schema.Top, S extends Schema.Top, E extends Schema.Top> = (
  messages: ReadonlyArray<CommandPayload<I["Type"]>>,
  id: string,
  state?: unknown
) => Effect.Effect<ReadonlyArray<Exit.Exit<Outcome<S["Type"]>, E["Type"]>>, E["Type"] | SqlError, Sql | BlobStore | ActorSystem>

/** Declares a command: `run` refuses with the tagged errors of `error` (SQL conflicts are added by `workActor`). */
export const command = <I extends Schema.Top, S extends Schema.Top, E extends Schema.Top>(
  input: I,
  success: S,
  error: E,
  run: (input: I["Type"], by: string, id: string, state?: unknown) => CommandEffect<S["Type"], E["Type"]>
): Command<I, S, E> => ({ input, success, error, run })

/** Declares a command that runs a group's consecutive messages at once; one message alone is a batch of one. */
export const batchCommand = <I extends Schema.Top, S extends Schema.Top, E extends Schema.Top>(
  input: I,
  success: S,
  error: E,
  runAll: BatchRun<I, S, E>
): Command<I, S, E> => ({
  input,
  success,
  error,
  run: (input, by, id, state) => Effect.flatMap(runAll([{ by, input }], id, state), ([outcome]) => outcome!),
  runAll
})

/** `command` that also runs a group's consecutive messages at once (`runAll`), those `batchable` takes. */
export const batched = <I extends Schema.Top, S extends Schema.Top, E extends Schema.Top>(
  command: Command<I, S, E>,
  runAll: BatchRun<I, S, E>,
  batchable?: (input: I["Type"]) => boolean
): Command<I, S, E> => ({ ...command, runAll, ...(batchable === undefined ? {} : { batchable }) })

export type CommandTable = Record<string, Command<any, any, any>>

/** A read served from the actor's in-memory state, failing with `error`'s values. */
export interface Read<State, P extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top, E extends Schema.Top = Schema.Top> {
  readonly payload: P
  readonly success: S
  readonly error: E
  readonly handle: (payload: P["Type"], state: State, id: string) => Effect.Effect<S["Type"], E["Type"]>
}

export type Reads<State> = Record<string, Read<State, any, any, any>>

const NoPayload = Schema.Struct({})

/** The read answering the whole state, or failing with `missing` while there is none. */
export const stateRead = <S extends Schema.Top, E extends Schema.Top>(
  success: S,
  missing: E & { readonly make: (props: {}) => E["Type"] }
): Read<S["Type"] | null, typeof NoPayload, S, E> => {
  const absent = missing.make({})
  return {
    payload: NoPayload,
    success,
    error: missing,
    handle: (_, state) => (state === null ? Effect.fail(absent) : Effect.succeed(state))
  }
}

export interface ReadModel<State, R extends Reads<State> = Reads<State>> {
  readonly state: Schema.Codec<State, any>
  readonly rebuild: (id: string) => Effect.Effect<State, SqlError, Sql>
  readonly reads: R
  /**
   * The state after command `name` succeeded with `result`: a new state when
   * the result says it, the same one when the command cannot alter it, or
   * `undefined` to rebuild it before the next message (the default).
   */
  readonly afterCommand?: (name: string, result: unknown, state: State, id: string) => State | undefined
}

const By = Schema.String.annotate({ description: "The acting user's id" })

/** What a command's message carries: the acting user and the command's input. */
export interface CommandPayload<I> {
  readonly by: string
  readonly input: I
}

/** SQL failures every command may meet: its unique and foreign-key violations, the caller's conflict. */
const SqlConflict = Schema.Union([ItemExists, ReferenceGone])

/** The message a command becomes. */
export interface CommandMessage<C extends Command<any, any, any>> {
  readonly payload: Schema.Codec<CommandPayload<C["input"]["Type"]>, unknown, unknown, unknown>
  readonly success: C["success"]
  readonly error: Schema.Codec<C["error"]["Type"] | ItemExists | ReferenceGone, unknown, unknown, unknown>
}

export type CommandMessages<T extends CommandTable> = { readonly [Name in keyof T]: CommandMessage<T[Name]> }

export type ReadMessages<R> = {
  readonly [Name in keyof R]: R[Name] extends Read<any, infer P, infer S, infer E>
    ? { readonly payload: P; readonly success: S; readonly error: E }
    : never
}

/**
 * A pm actor kind: its commands' messages and its reads' messages. Its type
 * leaves out which messages it groups and which are read-only, so it is also
 * an `ActorKind` of its commands alone and of its reads alone, which `send`
 * and `read` ask.
 */
export interface WorkActor<T extends CommandTable, State = null, R extends Reads<State> = {}>
  extends Omit<
    TypedActorKind<State, CommandMessages<T> & ReadMessages<R>, Sql | BlobStore | ActorSystem | ChangeLog>,
    "group" | "readOnly"
  > {
  readonly commands: T
  readonly reads: R
}

/** SQL failures that are the caller's conflict, not a defect: unique and foreign-key violations. */
const conflicts = (error: SqlError): Effect.Effect<never, ItemExists | ReferenceGone> =>
  error.code === "23505" ? Effect.fail(new ItemExists()) : error.code === "23503" ? Effect.fail(new ReferenceGone()) : Effect.die(error)

// The kinds are declared in WorkActors.ts (which builds on this module); invalidation needs only their names.
const readModelKinds = { tasks: { kind: "pmTask" }, lists: { kind: "pmList" }, spaces: { kind: "pmSpace" } }

/** Invalidates the live read models a change altered, except the actor that made it (it refreshes itself). */
export const invalidate = (stale: Stale, self: { readonly kind: string; readonly id: string } = { kind: "", id: "" }) =>
  stale.tasks.length + stale.lists.length + stale.spaces.length === 0
    ? Effect.void
    : ActorSystem.use((system) =>
        Effect.forEach(
          (["tasks", "lists", "spaces"] as const).flatMap((group) => stale[group].map((id) => [readModelKinds[group], id] as const)),
          ([kind, id]) => (self.kind === kind.kind && self.id === id ? Effect.void : system.invalidate(kind, id)),
          { concurrency: 16, discard: true }
        )
      )

const runCommand =
  <State>(name: string, entry: Command, readModel: ReadModel<State> | undefined) =>
  (payload: CommandPayload<unknown>, ctx: ActorContext<State>) =>
    ChangeLog.use((log) =>
      log.transact(
        Effect.flatMap(entry.run(payload.input, payload.by, ctx.address.id, ctx.state), (outcome) =>
          Effect.map(staleReadModels(outcome.changes), (stale) => ({ result: { value: outcome.result, stale }, changes: outcome.changes }))
        )
      )
    ).pipe(
      Effect.tap(({ stale }) => invalidate(stale, ctx.address)),
      Effect.map(({ value }) => {
        if (readModel !== undefined) {
          const next = readModel.afterCommand?.(name, value, ctx.state, ctx.address.id)
          if (next === undefined) ctx.reload()
          else ctx.setState(next)
        }
        return value
      }),
      Effect.catchIf((error) => error instanceof SqlError, conflicts)
    )

/** A member of a group refused after it sent a write: the group's transaction rolls back and runs again without it. */
class RefusedAfterWriting extends Data.TaggedError("RefusedAfterWriting")<{ readonly index: number; readonly refusal: unknown }> {}

/** A batch failed as a whole with a refusal: the group runs again with that command's messages one by one. */
class BatchRefused extends Data.TaggedError("BatchRefused")<{}> {}

/**
 * `effect` with the context's `Sql` noting in `wrote` whether it sent a statement that may write, or one that
 * failed (which leaves the transaction unusable): a refusal after either cannot be left in the group's transaction.
 */
const tracked = <A, E, R>(effect: Effect.Effect<A, E, R>, wrote: { value: boolean }) =>
  Sql.use((sql) =>
    Effect.provideService(effect, Sql, {
      ...sql,
      query: <Q extends object = Row>(text: string, params?: ReadonlyArray<unknown>) => {
        if (mayModify(text)) wrote.value = true
        return Effect.tapError(sql.query<Q>(text, params), () =>
          Effect.sync(() => {
            wrote.value = true
          })
        )
      },
      queryWithCommit: (text, params, then) => {
        wrote.value = true
        return sql.queryWithCommit(text, params, then)
      },
      executeScript: (script: string) => {
        wrote.value = true
        return sql.executeScript(script)
      }
    })
  )

/** A member's failure answered to it alone: a declared refusal or a SQL conflict; undefined when the whole group must fail. */
const refusalIn = (cause: Cause.Cause<unknown>): unknown => {
  const first = cause.reasons[0]
  if (first === undefined || !Cause.isFailReason(first) || !cause.reasons.every(Cause.isFailReason)) return undefined
  const error = first.error
  if (!(error instanceof SqlError)) return error
  return error.code === "23505" ? new ItemExists() : error.code === "23503" ? new ReferenceGone() : undefined
}

const isCommandPayload = (payload: unknown): payload is CommandPayload<unknown> =>
  typeof payload === "object" && payload !== null && "by" in payload && typeof payload.by === "string" && "input" in payload

interface GroupMember {
  /** Its place among the group's messages. */
  readonly index: number
  readonly name: string
  readonly payload: CommandPayload<unknown>
}

/**
 * The group handler of a kind (see the module's doc): the members run in arrival order in one transaction,
 * each on the state the ones before it left (undefined once one of them needs a rebuild: it reads its rows).
 */
const runGroup =
  <State>(commands: CommandTable, readModel: ReadModel<State> | undefined) =>
  (messages: ReadonlyArray<{ readonly tag: string; readonly payload: unknown }>, ctx: ActorContext<State>) => {
    const outcomes: Array<Exit.Exit<unknown, unknown>> = []
    const attempt = (
      members: ReadonlyArray<GroupMember>,
      batching: boolean
    ): Effect.Effect<void, unknown, Sql | BlobStore | ActorSystem | ChangeLog> =>
      members.length === 0
        ? Effect.void
        : ChangeLog.use((log) =>
            log.transact(
              Effect.gen(function* () {
                let state = ctx.state
                // False once a member's result did not give the state after it: it is rebuilt after the group.
                let current = true
                const done: Array<{ readonly index: number; readonly value: unknown }> = []
                const refused: Array<{ readonly index: number; readonly refusal: unknown }> = []
                const changes: Array<Change> = []
                const succeeded = (member: GroupMember, outcome: Outcome<unknown>) => {
                  changes.push(...outcome.changes)
                  done.push({ index: member.index, value: outcome.result })
                  if (readModel !== undefined && current) {
                    const next = readModel.afterCommand?.(member.name, outcome.result, state, ctx.address.id)
                    if (next === undefined) current = false
                    else state = next
                  }
                }
                for (let at = 0; at < members.length; ) {
                  const member = members[at]!
                  const entry = commands[member.name]!
                  const takes = (m: GroupMember) => m.name === member.name && (entry.batchable?.(m.payload.input) ?? true)
                  if (batching && entry.runAll !== undefined && takes(member)) {
                    let end = at + 1
                    while (end < members.length && takes(members[end]!)) end++
                    const batch = members.slice(at, end)
                    at = end
                    const exit = yield* Effect.exit(
                      entry.runAll(
                        batch.map((m) => m.payload),
                        ctx.address.id,
                        current ? state : undefined
                      )
                    )
                    if (Exit.isFailure(exit)) {
                      if (refusalIn(exit.cause) === undefined) return yield* Effect.failCause(exit.cause)
                      return yield* new BatchRefused()
                    }
                    for (const [i, outcome] of exit.value.entries()) {
                      if (Exit.isSuccess(outcome)) {
                        succeeded(batch[i]!, outcome.value)
                        continue
                      }
                      const refusal = refusalIn(outcome.cause)
                      if (refusal === undefined) return yield* Effect.failCause(outcome.cause)
                      refused.push({ index: batch[i]!.index, refusal })
                    }
                    continue
                  }
                  at++
                  const wrote = { value: false }
                  const run = entry.run(member.payload.input, member.payload.by, ctx.address.id, current ? state : undefined)
                  const exit = yield* Effect.exit(tracked(run, wrote))
                  if (Exit.isSuccess(exit)) {
                    succeeded(member, exit.value)
                    continue
                  }
                  const refusal = refusalIn(exit.cause)
                  if (refusal === undefined) return yield* Effect.failCause(exit.cause)
                  if (wrote.value) return yield* new RefusedAfterWriting({ index: member.index, refusal })
                  refused.push({ index: member.index, refusal })
                }
                const stale = yield* staleReadModels(changes)
                return { result: { done, refused, state, current, stale }, changes }
              })
            )
          ).pipe(
            Effect.tap(({ stale }) => invalidate(stale, ctx.address)),
            Effect.flatMap(({ done, refused, state, current }) =>
              Effect.sync(() => {
                for (const { index, value } of done) outcomes[index] = Exit.succeed(value)
                for (const { index, refusal } of refused) outcomes[index] = Exit.fail(refusal)
                if (readModel !== undefined) {
                  if (current) ctx.setState(state)
                  else ctx.reload()
                }
              })
            ),
            Effect.catchIf(
              (error): error is RefusedAfterWriting => error instanceof RefusedAfterWriting,
              ({ index, refusal }) => {
                outcomes[index] = Exit.fail(refusal)
                return attempt(
                  members.filter((member) => member.index !== index),
                  batching
                )
              }
            ),
            Effect.catchIf(
              (error): error is BatchRefused => error instanceof BatchRefused,
              () => attempt(members, false)
            )
          )
    const members: Array<GroupMember> = []
    for (const [index, message] of messages.entries()) {
      // The runtime decoded each payload with its command's message schema (see `workActor`): checked, not cast.
      if (!isCommandPayload(message.payload)) return Effect.die(new Error(`${ctx.address.kind}: "${message.tag}" has no command payload`))
      members.push({ index, name: message.tag, payload: message.payload })
    }
    return attempt(members, true).pipe(
      Effect.as(outcomes),
      Effect.catchIf((error) => error instanceof SqlError, conflicts)
    )
  }

type Handler = (payload: any, ctx: ActorContext<unknown>) => Effect.Effect<unknown, unknown, Sql | BlobStore | ActorSystem | ChangeLog>

/** How a kind handles its messages beyond one at a time. */
export interface WorkActorOptions<T extends CommandTable> {
  /**
   * Commands whose messages queued together on one actor commit together (see the module's doc). The kind's
   * reads are then answered from memory at once (`readOnly`): one queued among the writes would end their group.
   */
  readonly group?: ReadonlyArray<keyof T & string>
}

/** Declares a pm actor kind from its commands, and optionally its read model. */
export function workActor<T extends CommandTable>(kind: string, commands: T): WorkActor<T>
export function workActor<T extends CommandTable, State, R extends Reads<State>>(
  kind: string,
  commands: T,
  readModel: ReadModel<State, R>,
  options?: WorkActorOptions<T>
): WorkActor<T, State, R>
export function workActor(
  kind: string,
  commands: CommandTable,
  readModel?: ReadModel<unknown>,
  options: WorkActorOptions<CommandTable> = {}
): TypedActorKind<any, any, any> & { readonly commands: CommandTable; readonly reads: Reads<any> } {
  const messages: Record<string, Required<MessageSchemas>> = {}
  const handlers: Record<string, Handler> = {}
  for (const [name, entry] of Object.entries<Command>(commands)) {
    messages[name] = {
      payload: Schema.Struct({ by: By, input: entry.input }),
      success: entry.success,
      error: Schema.Union([entry.error, SqlConflict])
    }
    handlers[name] = runCommand(name, entry, readModel)
  }
  for (const [name, read] of Object.entries(readModel?.reads ?? {})) {
    if (Object.hasOwn(messages, name)) throw new Error(`${kind}: "${name}" is both a command and a read`)
    messages[name] = { payload: read.payload, success: read.success, error: read.error }
    handlers[name] = (payload, ctx) => read.handle(payload, ctx.state, ctx.address.id)
  }
  const grouped = options.group ?? []
  for (const name of grouped) if (!Object.hasOwn(commands, name)) throw new Error(`${kind}: grouped "${name}" is not a command`)
  const actor = Actor<unknown>()({
    kind,
    state: readModel?.state ?? Schema.Null,
    initial: () => null,
    ...(readModel ? { rebuild: readModel.rebuild } : {}),
    ...(grouped.length > 0 ? { group: { tags: grouped, handle: runGroup(commands, readModel) } } : {}),
    readOnly: Object.keys(readModel?.reads ?? {}),
    messages,
    handlers
  })
  return { ...actor, commands, reads: readModel?.reads ?? {} }
}

export type InputOf<C> = C extends Command<infer I, any, any> ? I["Type"] : never

/** Asks the owning actor to run one command; the result and errors follow the command. */
export const send = <T extends CommandTable, Name extends keyof T & string>(
  actor: { readonly commands: T } & ActorKind<any, CommandMessages<T>, any>,
  id: string,
  name: Name,
  by: string,
  input: T[Name]["input"]["Type"]
): Effect.Effect<SuccessOf<typeof actor, Name>, ErrorOf<typeof actor, Name> | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor, id, name, { by, input }))

/** Asks an actor for one of its reads (served from its in-memory state). */
export const read = <R extends Reads<any>, Name extends keyof R & string>(
  actor: { readonly reads: R } & ActorKind<any, ReadMessages<R>, any>,
  id: string,
  name: Name,
  payload: R[Name]["payload"]["Type"]
): Effect.Effect<SuccessOf<typeof actor, Name>, ErrorOf<typeof actor, Name> | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(actor, id, name, payload))
