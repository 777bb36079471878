/**
 * The folded "New …" panel of the feedback pages (a board, a request, a bug
 * report, a changelog entry): a disclosure holding a form whose fields come
 * in as children, one submit button and the error of the last try.
 */
import type { ReactNode } from "react"
import { ErrorMessage } from "../../ui/Status.tsx"

export const NewItemPanel = ({
  summary,
  submitLabel,
  create,
  children,
  after
}: {
  readonly summary: string
  readonly submitLabel: string
  /** The mutation that makes the item. */
  readonly create: { readonly mutate: () => void; readonly isPending: boolean; readonly error: unknown }
  readonly children: ReactNode
  /** Below the button: what the last submit made. */
  readonly after?: ReactNode
}) => (
  <details className="panel">
    <summary>{summary}</summary>
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault()
        create.mutate()
      }}
    >
      {children}
      <button type="submit" disabled={create.isPending}>
        {submitLabel}
      </button>
      {create.error ? <ErrorMessage error={create.error} /> : null}
      {after}
    </form>
  </details>
)
