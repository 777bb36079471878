/** A secret the server shows once (an API key, a signing secret): visible, copyable, then gone. */
import { useId, useState } from "react"

export const SecretOnce = ({ label, secret, onDone }: { readonly label: string; readonly secret: string; readonly onDone: () => void }) => {
  const id = useId()
  const [copied, setCopied] = useState(false)
  return (
    <section className="secret-once" aria-label={label}>
      <p>
        <strong>{label}</strong>: copy it now, it is shown only once.
      </p>
      <div className="row">
        <input id={id} aria-label={label} readOnly value={secret} className="mono" onFocus={(event) => event.currentTarget.select()} />
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="muted small">
        {copied ? "Copied." : ""}
      </p>
    </section>
  )
}
