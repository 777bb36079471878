/**
 * The task drawer: a modal dialog over the list (`?task=<id>`), so Escape or
 * "Close" returns to the list with focus where it was; the URL is shareable.
 */
import { useEffect, useRef } from "react"
import { useSearchParams } from "react-router"
import { TaskDetail } from "./TaskDetail.tsx"

export const TaskDrawer = ({ taskId }: { readonly taskId: string }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [params, setParams] = useSearchParams()
  const close = () => {
    const next = new URLSearchParams(params)
    next.delete("task")
    setParams(next)
  }
  useEffect(() => {
    const element = dialog.current
    if (element !== null && !element.open) element.showModal()
    return () => element?.close()
  }, [])
  return (
    // A close the component itself undid (React's development remount) leaves the dialog open: only a real close leaves.
    <dialog ref={dialog} className="drawer" aria-label="Task" onClose={() => dialog.current?.open || close()}>
      <div className="drawer-bar">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <TaskDetail taskId={taskId} key={taskId} />
    </dialog>
  )
}
