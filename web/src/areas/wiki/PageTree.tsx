/**
 * A space's page tree. Pages move by drag and drop (onto a page: under it;
 * onto "Top level": to the top) or from the keyboard on a focused page:
 * Alt+↑ / Alt+↓ among its siblings, Alt+→ under the page above it, Alt+← out
 * to its parent's level — each a `POST /wiki/v1/pages/{pageId}/move`, the tree
 * re-read after. Editors and admins of the space move pages; viewers only read.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type DragEvent, type KeyboardEvent, useLayoutEffect, useRef, useState } from "react"
import { Link } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { pageHref } from "../common/links.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

type Tree = NonNullable<ReturnType<typeof useTree>["data"]>
export type TreeNode = Tree["items"][number]

export const treeKey = (spaceId: string) => ["get", "/wiki/v1/spaces/{spaceId}/tree", { params: { path: { spaceId } } }] as const

export const useTree = (spaceId: string) => $api.useQuery("get", "/wiki/v1/spaces/{spaceId}/tree", { params: { path: { spaceId } } })

interface Place {
  readonly node: TreeNode
  readonly parent: TreeNode | null
  readonly siblings: ReadonlyArray<TreeNode>
  readonly index: number
}

const find = (nodes: ReadonlyArray<TreeNode>, id: string, parent: TreeNode | null = null): Place | undefined => {
  for (const [index, node] of nodes.entries()) {
    if (node.id === id) return { node, parent, siblings: nodes, index }
    const inner = find(node.children, id, node)
    if (inner) return inner
  }
  return undefined
}

const contains = (node: TreeNode, id: string): boolean => node.id === id || node.children.some((child) => contains(child, id))

export const PageTree = ({
  workspaceId,
  spaceId,
  current,
  canMove
}: {
  readonly workspaceId: string
  readonly spaceId: string
  readonly current: string | undefined
  readonly canMove: boolean
}) => {
  const tree = useTree(spaceId)
  const queryClient = useQueryClient()
  const [error, setError] = useState("")
  const host = useRef<HTMLDivElement>(null)
  /** The page that had keyboard focus: after a move it is re-rendered elsewhere, and keeps focus. */
  const focused = useRef<string | undefined>(undefined)

  useLayoutEffect(() => {
    if (focused.current === undefined || (document.activeElement !== null && document.activeElement !== document.body)) return
    host.current?.querySelector<HTMLElement>(`[data-page-id="${focused.current}"]`)?.focus()
  })

  const move = async (pageId: string, parentPageId: string | null, index: number | undefined, said: string) => {
    setError("")
    try {
      data(
        await client.POST("/wiki/v1/pages/{pageId}/move", {
          params: { path: { pageId } },
          body: { parentPageId, ...(index !== undefined ? { index } : {}) }
        })
      )
      await queryClient.invalidateQueries({ queryKey: treeKey(spaceId) })
      announce(said)
    } catch (cause) {
      setError(messageOf(cause, "The page could not be moved"))
    }
  }

  const onKey = (node: TreeNode) => (event: KeyboardEvent) => {
    if (!canMove || !event.altKey || tree.data === undefined) return
    const place = find(tree.data.items, node.id)
    if (place === undefined) return
    const parentId = place.parent?.id ?? null
    if (event.key === "ArrowUp" && place.index > 0) {
      event.preventDefault()
      void move(node.id, parentId, place.index - 1, `${node.title} moved up`)
    } else if (event.key === "ArrowDown" && place.index < place.siblings.length - 1) {
      event.preventDefault()
      void move(node.id, parentId, place.index + 1, `${node.title} moved down`)
    } else if (event.key === "ArrowRight" && place.index > 0) {
      event.preventDefault()
      const above = place.siblings[place.index - 1]!
      void move(node.id, above.id, undefined, `${node.title} moved under ${above.title}`)
    } else if (event.key === "ArrowLeft" && place.parent !== null) {
      event.preventDefault()
      const outer = find(tree.data.items, place.parent.id)!
      void move(node.id, outer.parent?.id ?? null, outer.index + 1, `${node.title} moved out of ${place.parent.title}`)
    }
  }

  const dropOn = (target: TreeNode | null) => (event: DragEvent) => {
    event.preventDefault()
    event.stopPropagation()
    const pageId = event.dataTransfer.getData("application/x-atrium-page")
    if (pageId === "" || tree.data === undefined || pageId === target?.id) return
    const dragged = find(tree.data.items, pageId)
    if (dragged === undefined) return
    if (target !== null && contains(dragged.node, target.id)) return setError("A page cannot move under one of its own subpages")
    void move(
      pageId,
      target?.id ?? null,
      undefined,
      target ? `${dragged.node.title} moved under ${target.title}` : `${dragged.node.title} moved to the top level`
    )
  }

  const allowDrop = (event: DragEvent) => {
    if (event.dataTransfer.types.includes("application/x-atrium-page")) event.preventDefault()
  }

  const items = (nodes: ReadonlyArray<TreeNode>, top: boolean) => (
    <ul aria-label={top ? "Pages" : undefined} aria-describedby={top && canMove ? "tree-help" : undefined}>
      {nodes.map((node) => (
        <li key={node.id} onDragOver={canMove ? allowDrop : undefined} onDrop={canMove ? dropOn(node) : undefined}>
          <Link
            to={pageHref(workspaceId, spaceId, node.id)}
            aria-current={node.id === current ? "page" : undefined}
            data-page-id={node.id}
            draggable={canMove}
            onDragStart={(event) => event.dataTransfer.setData("application/x-atrium-page", node.id)}
            onKeyDown={onKey(node)}
            onFocus={() => {
              focused.current = node.id
            }}
            onBlur={(event) => {
              const next = event.relatedTarget as Node | null
              if (next !== null && !host.current?.contains(next)) focused.current = undefined
            }}
          >
            {`${node.icon ?? ""} ${node.title}`.trim()}
          </Link>
          {node.children.length > 0 ? items(node.children, false) : null}
        </li>
      ))}
    </ul>
  )

  if (tree.isPending) return <Loading what="pages" />
  if (tree.error) return <ErrorMessage error={tree.error} what="The pages could not be loaded" />
  return (
    <div ref={host} className="page-tree">
      {canMove ? (
        <p id="tree-help" className="visually-hidden">
          Drag a page onto another to move it under that page. From the keyboard: Alt+Up or Alt+Down moves it among its siblings, Alt+Right
          under the page above it, Alt+Left out to its parent's level.
        </p>
      ) : null}
      {tree.data.items.length === 0 ? <p>No pages yet.</p> : items(tree.data.items, true)}
      {canMove && tree.data.items.length > 0 ? (
        <p className="drop-top muted small" onDragOver={allowDrop} onDrop={dropOn(null)}>
          Drop here for the top level
        </p>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </div>
  )
}
