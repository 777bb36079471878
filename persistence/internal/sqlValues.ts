/**
 * How JS values cross the SQL boundary, shared by both backends so that the
 * same query returns identical JS values on PostgreSQL and on PGlite.
 *
 * Results (text format, parsed by column type):
 * - int2/int4/oid/float4/float8 → number
 * - int8 → number when it is a safe integer (|n| ≤ 2^53 − 1), otherwise the
 *   exact decimal string (never silently rounded). `count(*)` is an int8.
 * - numeric → string (exact)
 * - timestamptz/timestamp → ISO 8601 UTC string with millisecond precision,
 *   `Date#toISOString()` form ("2024-05-01T12:00:00.123Z"); a timestamp
 *   without time zone is read as UTC; ±infinity → "infinity" / "-infinity"
 * - date → "YYYY-MM-DD" string
 * - json/jsonb → the parsed JS value (objects stay objects)
 * - bytea → Uint8Array
 * - bool → boolean; everything else (text, uuid, time, interval…) → string
 *
 * Parameters (serialized by the type PostgreSQL infers for `$n`):
 * - json/jsonb → `JSON.stringify(value)`: objects and arrays are stored as
 *   JSON objects/arrays; a JS string becomes a JSON *string*, so never pass
 *   pre-stringified JSON.
 * - timestamptz/timestamp → Date or epoch millis → ISO string; strings pass
 * - date → Date → "YYYY-MM-DD"; strings pass
 * - int8 → number | bigint | string, written in decimal
 * - bytea → Uint8Array
 * - `undefined` is refused (use `null` for SQL NULL).
 *
 * @internal
 */

export const Oid = {
  BOOL: 16,
  BYTEA: 17,
  INT8: 20,
  INT2: 21,
  INT4: 23,
  TEXT: 25,
  OID: 26,
  JSON: 114,
  FLOAT4: 700,
  FLOAT8: 701,
  BPCHAR: 1042,
  VARCHAR: 1043,
  DATE: 1082,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
  NUMERIC: 1700,
  JSONB: 3802
} as const

export type Parser = (text: string) => unknown
export type Serializer = (value: any) => string

// ---------------------------------------------------------------------------
// parsers

const parseNumber: Parser = (text) => +text

export const parseInt8: Parser = (text) => {
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : text
}

const parseBool: Parser = (text) => text === "t"

const parseText: Parser = (text) => text

const parseJson: Parser = (text) => JSON.parse(text)

const parseBytea: Parser = (text) => {
  // hex format ("\x0102…"), the default bytea_output on both backends
  if (text.startsWith("\\x")) {
    const buffer = Buffer.from(text.slice(2), "hex")
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  }
  return new TextEncoder().encode(text)
}

// "2024-05-01 12:00:00.123456+02", "2024-05-01 12:00:00", "0044-03-15 00:00:00+00 BC",
// offsets like "+05:30" or "-03:00:15" (historical LMT)
const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d+)?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?( BC)?$/

/**
 * What a UTC session prints for nearly every value ("2024-05-01 12:00:00.123456+00", or without an offset for a
 * timestamp): its ISO form is the same digits rearranged, without building a Date (task reads parse several per row).
 */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?(?:\+00)?$/

/** Parses PostgreSQL's text output of timestamp/timestamptz into `Date#toISOString()` form. */
export const parseTimestamp: Parser = (text) => {
  if (UTC_TIMESTAMP.test(text)) {
    // Digits after the point, truncated to milliseconds as below.
    const fraction = text.slice(20, text.endsWith("+00") ? text.length - 3 : text.length).slice(0, 3)
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction.padEnd(3, "0")}Z`
  }
  const m = TIMESTAMP.exec(text)
  if (m === null) return text // "infinity", "-infinity", or an unexpected DateStyle: leave as is
  let year = Number(m[1])
  if (m[12] !== undefined) year = 1 - year // 1 BC is year 0
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(1, 4).padEnd(3, "0"))
  const date = new Date(0)
  date.setUTCFullYear(year, Number(m[2]) - 1, Number(m[3]))
  date.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), millis)
  if (m[8] !== undefined) {
    const offsetSeconds = Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)
    date.setTime(date.getTime() - (m[8] === "-" ? -1 : 1) * offsetSeconds * 1000)
  }
  return date.toISOString()
}

export const parsers: Readonly<Record<number, Parser>> = {
  [Oid.BOOL]: parseBool,
  [Oid.BYTEA]: parseBytea,
  [Oid.INT8]: parseInt8,
  [Oid.INT2]: parseNumber,
  [Oid.INT4]: parseNumber,
  [Oid.OID]: parseNumber,
  [Oid.FLOAT4]: parseNumber,
  [Oid.FLOAT8]: parseNumber,
  [Oid.JSON]: parseJson,
  [Oid.JSONB]: parseJson,
  [Oid.DATE]: parseText,
  [Oid.TIMESTAMP]: parseTimestamp,
  [Oid.TIMESTAMPTZ]: parseTimestamp,
  [Oid.NUMERIC]: parseText
}

// ---------------------------------------------------------------------------
// serializers

const serializeJson: Serializer = (value) => {
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError(`Cannot encode ${typeof value} as JSON`)
  return text
}

const serializeTimestamp: Serializer = (value) =>
  value instanceof Date ? value.toISOString() : typeof value === "number" ? new Date(value).toISOString() : String(value)

const serializeDate: Serializer = (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value))

const serializeInt8: Serializer = (value) => String(value)

const serializeBool: Serializer = (value) => (value === true ? "t" : value === false ? "f" : String(value))

const serializeBytea: Serializer = (value) =>
  value instanceof Uint8Array ? "\\x" + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex") : String(value)

const serializeText: Serializer = (value) => (value instanceof Date ? value.toISOString() : String(value))

export const serializers: Readonly<Record<number, Serializer>> = {
  [Oid.BOOL]: serializeBool,
  [Oid.BYTEA]: serializeBytea,
  [Oid.INT8]: serializeInt8,
  [Oid.TEXT]: serializeText,
  [Oid.VARCHAR]: serializeText,
  [Oid.BPCHAR]: serializeText,
  [Oid.JSON]: serializeJson,
  [Oid.JSONB]: serializeJson,
  [Oid.DATE]: serializeDate,
  [Oid.TIMESTAMP]: serializeTimestamp,
  [Oid.TIMESTAMPTZ]: serializeTimestamp
}

/** The index of the first `undefined` parameter, or -1. */
export const undefinedParameter = (params: ReadonlyArray<unknown>): number => params.indexOf(undefined)
