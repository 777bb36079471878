/** Lens, the workspace assistant, as a panel beside any page: ask a question, read the answer and its sources. */
import { type FormEvent, useEffect, useRef, useState } from "react"
import { client, data, messageOf } from "../../api/client.ts"

interface Turn {
  readonly question: string
  readonly answer: string
  readonly citations: ReadonlyArray<string>
}

export const LensPanel = ({ workspaceId, onClose }: { readonly workspaceId: string; readonly onClose: () => void }) => {
  const [turns, setTurns] = useState<ReadonlyArray<Turn>>([])
  const [threadId, setThreadId] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState("")
  const input = useRef<HTMLTextAreaElement>(null)
  useEffect(() => input.current?.focus(), [])

  const ask = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const question = input.current?.value.trim() ?? ""
    if (question === "") return
    setBusy(true)
    setError("")
    try {
      const reply = data(
        await client.POST("/hub/lens/chat", { body: { message: question, workspaceId, ...(threadId ? { threadId } : {}) } })
      )
      setThreadId(reply.threadId)
      setTurns([...turns, { question, answer: reply.answer, citations: reply.citations.map((c) => c.title) }])
      if (input.current) input.current.value = ""
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
    }
  }

  return (
    <aside id="lens-panel" className="lens card" aria-labelledby="lens-title">
      <header>
        <h2 id="lens-title">Lens</h2>
        <button type="button" onClick={onClose}>
          Close Lens
        </button>
      </header>
      <ol className="plain" aria-live="polite">
        {turns.map((turn, index) => (
          <li key={`${index}-${turn.question}`}>
            <p>
              <strong>You:</strong> {turn.question}
            </p>
            <p>{turn.answer}</p>
            {turn.citations.length > 0 ? <p className="muted">Sources: {turn.citations.join("; ")}</p> : null}
          </li>
        ))}
      </ol>
      <form onSubmit={ask}>
        <label className="field">
          <span>Ask Lens</span>
          <textarea ref={input} name="question" rows={3} required maxLength={4000} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Asking…" : "Ask"}
        </button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </aside>
  )
}
