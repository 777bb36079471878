/**
 * Page slugs: a readable, URL-safe form of the title, unique within its
 * space (the Lite operations address pages by space key + slug). A slug
 * follows its page's title; a taken one gets a "-2", "-3"… suffix.
 */
import { Effect } from "effect"
import { query, SqlError } from "../../persistence/Sql.ts"
import type { Sql } from "../../persistence/Sql.ts"
import { WikiSlugClash } from "./WikiErrors.ts"

const MAX = 80

export const slugify = (title: string): string => {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX)
    .replace(/-+$/, "")
  return slug === "" ? "page" : slug
}

/** A slug for `title` not used by another page of the space. */
export const uniqueSlug = (spaceId: string, title: string, exceptPageId: string | null) =>
  Effect.map(
    query<{ slug: string }>("SELECT slug FROM wiki_pages WHERE space_id = $1 AND (slug = $2 OR slug LIKE $2 || '-%') AND id <> $3", [
      spaceId,
      slugify(title),
      exceptPageId ?? ""
    ]),
    (rows) => {
      const base = slugify(title)
      const taken = new Set(rows.map((row) => row.slug))
      if (!taken.has(base)) return base
      for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
    }
  )

const isUniqueViolation = (error: SqlError) => error.code === "23505"

/**
 * Runs a write that picks a slug, again when another writer took the same
 * slug in between (pages of one space are renamed by different page actors).
 */
export const retryOnSlugClash = <A, E, R>(write: Effect.Effect<A, E | SqlError, R>): Effect.Effect<A, E | WikiSlugClash, R | Sql> => {
  const attempt = (left: number): Effect.Effect<A, E | WikiSlugClash, R | Sql> =>
    Effect.catchIf(
      write,
      (error): error is SqlError => error instanceof SqlError,
      (error) =>
        isUniqueViolation(error) && left > 0
          ? attempt(left - 1)
          : isUniqueViolation(error)
            ? Effect.fail(new WikiSlugClash())
            : Effect.die(error)
    )
  return attempt(5)
}
