/** `ids` with `id` moved one place earlier (-1) or later (1); undefined when it is not there or already at that end. */
export const movedBy = (ids: ReadonlyArray<string>, id: string, by: -1 | 1): Array<string> | undefined => {
  const at = ids.indexOf(id)
  const to = at + by
  if (at < 0 || to < 0 || to >= ids.length) return undefined
  const order = ids.filter((other) => other !== id)
  order.splice(to, 0, id)
  return order
}
