/**
 * Hosts a view written without React (`show(element) → cleanup`) inside the
 * React tree: it owns its element's children, and its same-origin links
 * navigate through the router instead of reloading the page.
 */
import { type MouseEvent, useEffect, useRef } from "react"
import { useNavigate } from "react-router"

export const LegacyView = ({ show, className }: { readonly show: (host: HTMLElement) => () => void; readonly className?: string }) => {
  const host = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  useEffect(() => show(host.current!), [show])
  const follow = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest("a")
    if (link === null || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
    const url = new URL(link.href, location.href)
    if (url.origin !== location.origin || link.target !== "") return
    event.preventDefault()
    navigate(url.pathname + url.search + url.hash)
  }
  // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: delegates link activation (keyboard Enter on a link fires click)
  return <div ref={host} className={className} onClick={follow} />
}
