/**
 * A small zip writer and reader (PKWARE APPNOTE: local headers, central
 * directory, end record; deflate via node:zlib), enough for wiki exports and
 * imports without a dependency. Names are UTF-8 (general purpose flag bit 11).
 * No zip64, encryption or multi-disk archives: the reader refuses them, and
 * refuses entries that would inflate past a limit (zip bombs).
 */
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib"

export interface ZipEntry {
  readonly name: string
  readonly data: Uint8Array
}

const MAX_ENTRIES = 65_535
const LIMIT_32 = 0xffff_ffff

/** DOS time and date fields of `date` (local fields in UTC: zip has no zone). */
const dosDateTime = (date: Date) => ({
  time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
  date: (Math.max(0, date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate()
})

/** Writes `entries` as one zip archive (deflated unless deflating does not help). */
export const writeZip = (entries: ReadonlyArray<ZipEntry>, modified: Date = new Date()): Uint8Array => {
  if (entries.length > MAX_ENTRIES) throw new Error(`A zip holds at most ${MAX_ENTRIES} entries`)
  const { time, date } = dosDateTime(modified)
  const locals: Array<Uint8Array> = []
  const centrals: Array<Uint8Array> = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8")
    const deflated = deflateRawSync(entry.data)
    const stored = deflated.length >= entry.data.length
    const body = stored ? entry.data : deflated
    const crc = crc32(entry.data)
    if (body.length > LIMIT_32 || offset > LIMIT_32) throw new Error("The archive is too large for a zip without zip64")
    const local = Buffer.alloc(30 + name.length)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed: 2.0
    local.writeUInt16LE(0x0800, 6) // UTF-8 names
    local.writeUInt16LE(stored ? 0 : 8, 8)
    local.writeUInt16LE(time, 10)
    local.writeUInt16LE(date, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    name.copy(local, 30)
    const central = Buffer.alloc(46 + name.length)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(0x0314, 4) // made by: Unix, 2.0
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(stored ? 0 : 8, 10)
    central.writeUInt16LE(time, 12)
    central.writeUInt16LE(date, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38) // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42)
    name.copy(central, 46)
    locals.push(local, body)
    centrals.push(central)
    offset += local.length + body.length
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directorySize, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]))
}

/** Why an archive was refused. */
export class InvalidZip extends Error {
  readonly _tag = "InvalidZip"
}

/**
 * Reads the files of a zip archive (directories skipped). Refuses anything
 * malformed, encrypted, zip64, or inflating past `maxTotalBytes` in all.
 */
export const readZip = (bytes: Uint8Array, maxTotalBytes: number): Array<ZipEntry> => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 0xffff); i--) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      end = i
      break
    }
  }
  if (end < 0) throw new InvalidZip("Not a zip archive (no end of central directory)")
  const count = buffer.readUInt16LE(end + 10)
  const directorySize = buffer.readUInt32LE(end + 12)
  let at = buffer.readUInt32LE(end + 16)
  if (count === 0xffff || at === LIMIT_32) throw new InvalidZip("zip64 archives are not supported")
  if (at + directorySize > end) throw new InvalidZip("The central directory lies outside the archive")
  const entries: Array<ZipEntry> = []
  let total = 0
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || buffer.readUInt32LE(at) !== 0x02014b50) throw new InvalidZip("Corrupt central directory")
    const flags = buffer.readUInt16LE(at + 8)
    const method = buffer.readUInt16LE(at + 10)
    const crc = buffer.readUInt32LE(at + 16)
    const compressedSize = buffer.readUInt32LE(at + 20)
    const size = buffer.readUInt32LE(at + 24)
    const nameLength = buffer.readUInt16LE(at + 28)
    const extraLength = buffer.readUInt16LE(at + 30)
    const commentLength = buffer.readUInt16LE(at + 32)
    const localOffset = buffer.readUInt32LE(at + 42)
    const nameBytes = buffer.subarray(at + 46, at + 46 + nameLength)
    const name = (flags & 0x0800) !== 0 ? nameBytes.toString("utf8") : nameBytes.toString("latin1")
    at += 46 + nameLength + extraLength + commentLength
    if ((flags & 0x0001) !== 0) throw new InvalidZip(`${name}: encrypted entries are not supported`)
    if (name.endsWith("/")) continue
    if (localOffset + 30 > end || buffer.readUInt32LE(localOffset) !== 0x04034b50) throw new InvalidZip(`${name}: corrupt local header`)
    const dataStart = localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28)
    if (dataStart + compressedSize > end) throw new InvalidZip(`${name}: data lies outside the archive`)
    total += size
    if (total > maxTotalBytes) throw new InvalidZip(`The archive unpacks to more than ${maxTotalBytes} bytes`)
    const raw = buffer.subarray(dataStart, dataStart + compressedSize)
    let data: Buffer
    if (method === 0 || size === 0) data = Buffer.from(method === 0 ? raw : Buffer.alloc(0))
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size) })
      } catch (cause) {
        throw new InvalidZip(`${name}: cannot inflate (${(cause as Error).message})`)
      }
    } else throw new InvalidZip(`${name}: compression method ${method} is not supported (only stored and deflate)`)
    if (data.length !== size || crc32(data) !== crc) throw new InvalidZip(`${name}: checksum mismatch`)
    entries.push({ name, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) })
  }
  return entries
}
