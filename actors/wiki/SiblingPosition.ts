/**
 * Where a page goes among its siblings: positions are numbers ordered
 * ascending; a page put between two others takes the midpoint, and when
 * midpoints run out of precision the siblings are renumbered 1, 2, 3…
 */

export interface Placement {
  readonly position: number
  /** Siblings to renumber first (id → new position), when the gap was exhausted. */
  readonly renumber: ReadonlyArray<readonly [string, number]>
}

/**
 * @param siblings the other pages under the same parent, in order
 * @param index where the page should end up (0 = first); `null` or past the end = last
 */
export const placeAt = (siblings: ReadonlyArray<{ readonly id: string; readonly position: number }>, index: number | null): Placement => {
  if (siblings.length === 0) return { position: 1, renumber: [] }
  if (index === null || index >= siblings.length) return { position: siblings[siblings.length - 1]!.position + 1, renumber: [] }
  if (index <= 0) return { position: siblings[0]!.position - 1, renumber: [] }
  const before = siblings[index - 1]!.position
  const after = siblings[index]!.position
  const middle = (before + after) / 2
  if (middle > before && middle < after) return { position: middle, renumber: [] }
  const renumber = siblings.map((sibling, i) => [sibling.id, i < index ? i + 1 : i + 2] as const)
  return { position: index + 1, renumber }
}
