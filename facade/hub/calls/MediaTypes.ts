/** The media files a recording accepts, and a check that the bytes are of the type they claim. */
export const MEDIA_TYPES = ["video/mp4", "video/webm", "video/quicktime", "audio/mpeg", "audio/mp4", "audio/wav", "audio/ogg", "audio/webm"]

export const MAX_MEDIA_BYTES = Number(process.env.HUB_MAX_MEDIA_BYTES || 200 * 1024 * 1024)

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length))

/** Magic bytes of each accepted type (ISO BMFF `ftyp`, EBML, ID3/MPEG frame sync, RIFF WAVE, OggS). */
export const sniffMedia = (contentType: string, bytes: Uint8Array): boolean => {
  const type = contentType.split(";")[0]!.trim().toLowerCase()
  if (bytes.length < 12) return false
  switch (type) {
    case "video/mp4":
    case "audio/mp4":
    case "video/quicktime":
      return ascii(bytes, 4, 4) === "ftyp" || ascii(bytes, 4, 4) === "moov" || ascii(bytes, 4, 4) === "wide"
    case "video/webm":
    case "audio/webm":
      return bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3
    case "audio/mpeg":
      return ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)
    case "audio/wav":
      return ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE"
    case "audio/ogg":
      return ascii(bytes, 0, 4) === "OggS"
    default:
      return false
  }
}
