/**
 * Page cover images: the built-in gallery (gradients and solid colours,
 * drawn as SVG so they need no files), images attached to pages, or any
 * http(s) URL. A page stores its cover as a reference: `gallery:<id>`,
 * `attachment:<attachmentId>` or the URL.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"

export interface GalleryImage {
  readonly id: string
  readonly name: string
  readonly category: "gradient" | "color"
  /** The image itself (an SVG data URL). */
  readonly url: string
}

const svg = (fill: string, defs = "") =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="400" viewBox="0 0 1600 400">${defs}<rect width="1600" height="400" fill="${fill}"/></svg>`
  ).toString("base64")}`

const gradient = (id: string, name: string, from: string, to: string, angle: number): GalleryImage => {
  const radians = (angle * Math.PI) / 180
  const [x2, y2] = [Math.round(50 + 50 * Math.cos(radians)), Math.round(50 + 50 * Math.sin(radians))]
  const defs = `<defs><linearGradient id="g" x1="${100 - x2}%" y1="${100 - y2}%" x2="${x2}%" y2="${y2}%"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`
  return { id, name, category: "gradient", url: svg("url(#g)", defs) }
}

const color = (id: string, name: string, fill: string): GalleryImage => ({ id, name, category: "color", url: svg(fill) })

export const gallery: ReadonlyArray<GalleryImage> = [
  gradient("gradient-dawn", "Dawn", "#ff9a8b", "#ff6a88", 0),
  gradient("gradient-ocean", "Ocean", "#2193b0", "#6dd5ed", 20),
  gradient("gradient-forest", "Forest", "#134e5e", "#71b280", 45),
  gradient("gradient-dusk", "Dusk", "#2c3e50", "#fd746c", 0),
  gradient("gradient-lavender", "Lavender", "#c471f5", "#fa71cd", 30),
  gradient("gradient-citrus", "Citrus", "#f7971e", "#ffd200", 10),
  gradient("gradient-mint", "Mint", "#00b09b", "#96c93d", 60),
  gradient("gradient-night", "Night sky", "#0f2027", "#2c5364", 90),
  gradient("gradient-peach", "Peach", "#ffecd2", "#fcb69f", 0),
  gradient("gradient-steel", "Steel", "#bdc3c7", "#2c3e50", 45),
  color("color-red", "Red", "#e03e3e"),
  color("color-orange", "Orange", "#d9730d"),
  color("color-yellow", "Yellow", "#dfab01"),
  color("color-green", "Green", "#0f7b6c"),
  color("color-blue", "Blue", "#0b6e99"),
  color("color-purple", "Purple", "#6940a5"),
  color("color-pink", "Pink", "#ad1a72"),
  color("color-gray", "Gray", "#9b9a97")
]

/** 400 unless a cover reference points at something that exists for this workspace. */
export const checkCover = (workspaceId: string, cover: string | null | undefined, field: string) =>
  Effect.gen(function* () {
    if (cover === null || cover === undefined) return
    if (cover.startsWith("gallery:")) {
      if (!gallery.some((image) => `gallery:${image.id}` === cover)) {
        return yield* reject("invalid", "No such image in the cover gallery", [{ path: field, message: "unknown gallery image" }])
      }
    } else if (cover.startsWith("attachment:")) {
      const rows = yield* Effect.orDie(
        query<{ content_type: string }>("SELECT content_type FROM wiki_attachments WHERE id = $1 AND workspace_id = $2", [
          cover.slice("attachment:".length),
          workspaceId
        ])
      )
      if (rows.length === 0 || !rows[0]!.content_type.startsWith("image/")) {
        return yield* reject("invalid", "The cover must be an image attached to a page of this workspace", [
          { path: field, message: "no such image attachment" }
        ])
      }
    }
  })
