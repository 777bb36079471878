/**
 * One statement on PGlite through the extended query protocol, driven by hand
 * (`PGlite#execProtocolRawStream`) so that bytea crosses as bytes both ways: PGlite's
 * own `query` asks for every result column in text format (a bytea comes back
 * as "\x…" hex, twice its size, decoded to a string and then to bytes) and its
 * result parser decodes every field as UTF-8, so binary fields cannot go
 * through it. Here a bytea result column is asked for in binary format and
 * handed over as its bytes; a Uint8Array bound to a bytea parameter is sent as
 * is (binary format). Every other column and parameter is text, parsed and
 * serialized by PGlite's own tables for the instance (`db.parsers`,
 * `db.serializers`: ours from `sqlValues.ts`, PGlite's for the rest, and the
 * array types it derives from them), so results are the values
 * `PGlite#query` gives.
 *
 * Each text is parsed once per instance into a named prepared statement
 * (Parse + Describe: its parameter and result types), kept for the
 * PREPARED_STATEMENTS most recently used texts; a statement is then one call
 * into PGlite (Bind + Execute + Sync; PGlite's `query` makes six calls and
 * parses and plans the text every time). The caller holds PGlite's locks
 * (`PGlite#_runExclusiveQuery`, and outside a transaction
 * `_runExclusiveTransaction`, as `PGlite#query` does).
 * Notifications (LISTEN) are not read here: PGlite is one process's
 * database and Atrium listens on PostgreSQL only.
 *
 * @internal
 */
import { Oid } from "./sqlValues.ts"

/** What a statement needs of a PGlite instance. */
export interface RawProtocol {
  readonly execProtocolRawStream: (
    message: Uint8Array,
    options: { readonly syncToFs: boolean; readonly onRawData: (chunk: Uint8Array) => void }
  ) => Promise<void>
  readonly parsers: Readonly<Record<number, ((text: string, typeId: number) => unknown) | undefined>>
  readonly serializers: Readonly<Record<number, ((value: any) => unknown) | undefined>>
}

const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

const TEXT_FORMAT = 0
const BINARY_FORMAT = 1

// ---------------------------------------------------------------------------
// frontend messages

/** Builds frontend messages into one buffer, growing it as needed. */
class Writer {
  private buffer = new Uint8Array(256)
  private view = new DataView(this.buffer.buffer)
  private at = 0
  private messageStart = 0

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.at + bytes))
    grown.set(this.buffer.subarray(0, this.at))
    this.buffer = grown
    this.view = new DataView(grown.buffer)
  }

  /** Starts a message of `type`; its length is filled in by `end`. */
  begin(type: number): this {
    this.room(5)
    this.buffer[this.at] = type
    this.messageStart = this.at + 1
    this.at += 5
    return this
  }

  end(): this {
    this.view.setInt32(this.messageStart, this.at - this.messageStart)
    return this
  }

  int16(value: number): this {
    this.room(2)
    this.view.setInt16(this.at, value)
    this.at += 2
    return this
  }

  int32(value: number): this {
    this.room(4)
    this.view.setInt32(this.at, value)
    this.at += 4
    return this
  }

  bytes(value: Uint8Array): this {
    this.room(value.byteLength)
    this.buffer.set(value, this.at)
    this.at += value.byteLength
    return this
  }

  cstring(value: string): this {
    return this.bytes(utf8.encode(value)).bytes(NUL)
  }

  take(): Uint8Array {
    return this.buffer.subarray(0, this.at)
  }
}

const NUL = new Uint8Array([0])
const P = 0x50 // Parse
const D = 0x44 // Describe
const B = 0x42 // Bind
const E = 0x45 // Execute
const S = 0x53 // Sync

const C = 0x43 // Close

/** Closes the statements `closed` (evicted from the cache), then parses `text` as statement `name` and describes it. */
const parseAndDescribe = (closed: ReadonlyArray<string>, name: string, text: string): Uint8Array => {
  const writer = new Writer()
  for (const statement of closed)
    writer
      .begin(C)
      .bytes(new Uint8Array([S]))
      .cstring(statement)
      .end()
  return writer
    .begin(P)
    .cstring(name)
    .cstring(text)
    .int16(0)
    .end()
    .begin(D)
    .bytes(new Uint8Array([S]))
    .cstring(name)
    .end()
    .take()
}

const syncOnly = new Writer().begin(S).end().take()

interface Parameter {
  readonly format: number
  readonly value: Uint8Array | null
}

const bindExecuteSync = (statement: string, parameters: ReadonlyArray<Parameter>, resultFormats: ReadonlyArray<number>): Uint8Array => {
  const writer = new Writer().begin(B).cstring("").cstring(statement).int16(parameters.length)
  for (const parameter of parameters) writer.int16(parameter.format)
  writer.int16(parameters.length)
  for (const { value } of parameters) {
    if (value === null) writer.int32(-1)
    else writer.int32(value.byteLength).bytes(value)
  }
  writer.int16(resultFormats.length)
  for (const format of resultFormats) writer.int16(format)
  return writer.end().begin(E).cstring("").int32(0).end().begin(S).end().take()
}

// ---------------------------------------------------------------------------
// backend messages

interface Field {
  readonly name: string
  readonly typeId: number
}

interface Described {
  readonly parameterTypes: ReadonlyArray<number>
  /** Undefined when the statement returns no rows (NoData). */
  readonly fields: ReadonlyArray<Field> | undefined
}

/** A server error, shaped like the errors of PGlite and postgres.js (`Driver.toSqlError` reads it). */
export class PgliteStatementError extends Error {
  constructor(
    message: string,
    readonly severity: string | undefined,
    readonly code: string | undefined,
    readonly detail: string | undefined,
    readonly hint: string | undefined
  ) {
    super(message)
    this.name = "PgliteStatementError"
  }
}

/** Reads backend messages: the type, and the body's bounds. */
const eachMessage = (data: Uint8Array, visit: (type: number, start: number, end: number) => void): void => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let at = 0
  while (at + 5 <= data.byteLength) {
    const type = data[at]!
    const length = view.getInt32(at + 1)
    visit(type, at + 5, at + 1 + length)
    at += 1 + length
  }
}

const cstringAt = (data: Uint8Array, start: number): { readonly value: string; readonly next: number } => {
  const end = data.indexOf(0, start)
  return { value: fromUtf8.decode(data.subarray(start, end)), next: end + 1 }
}

const errorOf = (data: Uint8Array, start: number, end: number): PgliteStatementError => {
  const fields = new Map<string, string>()
  let at = start
  while (at < end && data[at] !== 0) {
    const code = String.fromCharCode(data[at]!)
    const { value, next } = cstringAt(data, at + 1)
    fields.set(code, value)
    at = next
  }
  return new PgliteStatementError(fields.get("M") ?? "unknown error", fields.get("S"), fields.get("C"), fields.get("D"), fields.get("H"))
}

const described = (data: Uint8Array): Described | PgliteStatementError => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let parameterTypes: Array<number> = []
  let fields: Array<Field> | undefined
  let error: PgliteStatementError | undefined
  eachMessage(data, (type, start, end) => {
    if (type === 0x74) {
      // ParameterDescription
      const count = view.getInt16(start)
      parameterTypes = Array.from({ length: count }, (_, i) => view.getInt32(start + 2 + i * 4))
    } else if (type === 0x54) {
      // RowDescription
      const count = view.getInt16(start)
      fields = []
      let at = start + 2
      for (let i = 0; i < count; i++) {
        const { value: name, next } = cstringAt(data, at)
        fields.push({ name, typeId: view.getInt32(next + 6) })
        at = next + 18
      }
    } else if (type === 0x45 && error === undefined) error = errorOf(data, start, end)
  })
  return error ?? { parameterTypes, fields }
}

const rowsOf = (
  data: Uint8Array,
  fields: ReadonlyArray<Field>,
  parse: ReadonlyArray<((text: string, typeId: number) => unknown) | undefined>
): Array<Record<string, unknown>> | PgliteStatementError => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const rows: Array<Record<string, unknown>> = []
  let error: PgliteStatementError | undefined
  eachMessage(data, (type, start, end) => {
    if (type === 0x44) {
      // DataRow
      const row: Record<string, unknown> = {}
      const count = view.getInt16(start)
      let at = start + 2
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(at)
        at += 4
        const field = fields[i]!
        if (length === -1) row[field.name] = null
        else if (field.typeId === Oid.BYTEA) row[field.name] = data.slice(at, at + length)
        else {
          const text = fromUtf8.decode(data.subarray(at, at + length))
          const parser = parse[i]
          row[field.name] = parser === undefined ? text : parser(text, field.typeId)
        }
        if (length !== -1) at += length
      }
      rows.push(row)
    } else if (type === 0x45 && error === undefined) error = errorOf(data, start, end)
  })
  return error ?? rows
}

// ---------------------------------------------------------------------------

/**
 * Sends `message` and returns the backend's answer, through `execProtocolRawStream`: PGlite's `execProtocolRaw`
 * also parses every backend message into objects and appends them to a list that only its own `query`/`exec`
 * empty, so statements sent through it alone (a scan of reads) kept every reply's messages for good (≈ 5 KB
 * per getTask, none of it freed after passivation). The chunks are views of the WASM heap: copied.
 */
const exchange = async (db: RawProtocol, message: Uint8Array, syncToFs: boolean): Promise<Uint8Array> => {
  const chunks: Array<Uint8Array> = []
  let length = 0
  await db.execProtocolRawStream(message, {
    syncToFs,
    onRawData: (chunk) => {
      chunks.push(chunk.slice())
      length += chunk.byteLength
    }
  })
  if (chunks.length === 1) return chunks[0]!
  const joined = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    joined.set(chunk, at)
    at += chunk.byteLength
  }
  return joined
}

const parameterOf = (db: RawProtocol, typeId: number, value: unknown): Parameter => {
  if (value === null || value === undefined) return { format: TEXT_FORMAT, value: null }
  if (typeId === Oid.BYTEA && value instanceof Uint8Array) return { format: BINARY_FORMAT, value }
  const serialize = db.serializers[typeId]
  const serialized = serialize === undefined ? String(value) : serialize(value)
  if (serialized instanceof Uint8Array) return { format: BINARY_FORMAT, value: serialized }
  return { format: TEXT_FORMAT, value: utf8.encode(String(serialized)) }
}

/** Texts kept prepared per instance (each holds its parse tree and, once PostgreSQL settles on one, a plan). */
export const PREPARED_STATEMENTS = 256

/** A text prepared as a named statement, with what its replies need. */
interface Prepared {
  readonly name: string
  readonly parameterTypes: ReadonlyArray<number>
  readonly fields: ReadonlyArray<Field>
  readonly resultFormats: ReadonlyArray<number>
  readonly parse: ReadonlyArray<((text: string, typeId: number) => unknown) | undefined>
}

/** One instance's prepared statements by text, least recently used first; evicted ones are closed with the next Parse. */
class PreparedStatements {
  private readonly byText = new Map<string, Prepared>()
  private evicted: Array<string> = []
  private named = 0

  get(text: string): Prepared | undefined {
    const prepared = this.byText.get(text)
    if (prepared !== undefined) {
      this.byText.delete(text)
      this.byText.set(text, prepared)
    }
    return prepared
  }

  nextName(): string {
    return `atrium_${++this.named}`
  }

  add(text: string, prepared: Prepared): void {
    this.byText.set(text, prepared)
    if (this.byText.size > PREPARED_STATEMENTS) {
      const oldest = this.byText.keys().next()
      if (!oldest.done) this.drop(oldest.value)
    }
  }

  /** Forgets `text` (its statement is closed with the next Parse). */
  drop(text: string): void {
    const prepared = this.byText.get(text)
    if (prepared === undefined) return
    this.byText.delete(text)
    this.evicted.push(prepared.name)
  }

  takeEvicted(): Array<string> {
    const evicted = this.evicted
    this.evicted = []
    return evicted
  }
}

const preparedOf = new WeakMap<RawProtocol, PreparedStatements>()

const statementsOf = (db: RawProtocol): PreparedStatements => {
  let statements = preparedOf.get(db)
  if (statements === undefined) {
    statements = new PreparedStatements()
    preparedOf.set(db, statements)
  }
  return statements
}

/** Errors after which a prepared statement must be parsed again: its result type changed, or it is gone. */
const STALE_STATEMENT = new Set(["0A000", "26000"])

const prepare = async (db: RawProtocol, statements: PreparedStatements, text: string): Promise<Prepared> => {
  const name = statements.nextName()
  const description = described(await exchange(db, parseAndDescribe(statements.takeEvicted(), name, text), false))
  if (description instanceof PgliteStatementError) {
    // The server skips everything up to a Sync after an error.
    await exchange(db, syncOnly, false)
    throw description
  }
  const fields = description.fields ?? []
  const prepared: Prepared = {
    name,
    parameterTypes: description.parameterTypes,
    fields,
    resultFormats: fields.map((field) => (field.typeId === Oid.BYTEA ? BINARY_FORMAT : TEXT_FORMAT)),
    parse: fields.map((field) => db.parsers[field.typeId])
  }
  statements.add(text, prepared)
  return prepared
}

/**
 * Runs `text` with `params` and returns its rows. The caller holds PGlite's
 * locks; `syncToFs` as `PGlite#query` does it (outside a transaction). A
 * statement gone stale (a migration changed the tables it reads) is parsed
 * again: at once outside a transaction, by the next call inside one (the
 * transaction has failed anyway).
 */
export const runStatement = async (
  db: RawProtocol,
  text: string,
  params: ReadonlyArray<unknown>,
  syncToFs: boolean
): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const statements = statementsOf(db)
  for (let attempt = 1; ; attempt++) {
    const prepared = statements.get(text) ?? (await prepare(db, statements, text))
    const parameters = params.map((value, i) => parameterOf(db, prepared.parameterTypes[i] ?? 0, value))
    const reply = await exchange(db, bindExecuteSync(prepared.name, parameters, prepared.resultFormats), syncToFs)
    const rows = rowsOf(reply, prepared.fields, prepared.parse)
    if (!(rows instanceof PgliteStatementError)) return rows
    if (rows.code === undefined || !STALE_STATEMENT.has(rows.code)) throw rows
    statements.drop(text)
    if (!syncToFs || attempt > 1) throw rows
  }
}
