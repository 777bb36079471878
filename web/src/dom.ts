/** A tiny DOM builder for the views not yet moved to React: `h("button", { onclick }, "Save")`. */
export { announce } from "./ui/announce.tsx"

type Child = Node | string | null | undefined | false
type Attributes = Record<string, unknown>

export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Array<Child | Array<Child>>) => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value as EventListener)
    else if (name === "className") element.className = String(value)
    else if (name === "dataset") Object.assign(element.dataset, value)
    else element.setAttribute(name, value === true ? "" : String(value))
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    element.append(child)
  }
  return element
}

/** Replaces an element's children. */
export const mount = (parent: Element, ...children: Array<Child>) => {
  parent.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false))
}
