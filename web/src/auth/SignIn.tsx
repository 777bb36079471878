/**
 * Sign in or create an account (pm's Authentication operations), and the
 * guard of every signed-in route: without a session it sends the person to
 * sign-in with `next` = the URL they were on, and back there afterwards.
 */
import { type FormEvent, useEffect, useRef, useState } from "react"
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from "react-router"
import { client, data, messageOf } from "../api/client.ts"
import { forgetOtherUsers } from "../api/queryClient.ts"
import { setSession, useSession } from "../api/session.ts"

export const RequireSession = () => {
  const session = useSession()
  const location = useLocation()
  useEffect(() => forgetOtherUsers(session?.user.id), [session?.user.id])
  if (session === undefined) {
    const next = location.pathname + location.search + location.hash
    return <Navigate to={`/sign-in${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`} replace />
  }
  return <Outlet />
}

/** Only paths inside the app: never an open redirect to another origin. */
const safeNext = (next: string | null) => (next?.startsWith("/") && !next.startsWith("//") ? next : "/")

export const SignIn = () => {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const [registering, setRegistering] = useState(false)
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const email = useRef<HTMLInputElement>(null)
  const next = safeNext(params.get("next"))

  useEffect(() => {
    document.title = registering ? "Create an account · Atrium" : "Sign in · Atrium"
    email.current?.focus()
  }, [registering])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const credentials = { email: String(form.get("email")), password: String(form.get("password")) }
    setError("")
    setBusy(true)
    try {
      if (registering) {
        const name = String(form.get("name") ?? "").trim()
        data(await client.POST("/pm/v1/auth/register", { body: { ...credentials, name: name === "" ? credentials.email : name } }))
      }
      const login = data(await client.POST("/pm/v1/auth/login", { body: credentials }))
      setSession({ accessToken: login.accessToken, refreshToken: login.refreshToken, user: login.user })
      navigate(next, { replace: true })
    } catch (cause) {
      setError(messageOf(cause, "Cannot reach the server"))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main id="main" className="sign-in">
      <section className="card narrow" aria-labelledby="signin-title">
        <h1 id="signin-title">{registering ? "Create your Atrium account" : "Sign in to Atrium"}</h1>
        {params.has("next") && !registering ? <p className="muted">Sign in to continue where you were.</p> : null}
        <form onSubmit={submit}>
          <label className="field">
            <span>Email</span>
            <input ref={email} type="email" name="email" autoComplete="username" required />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              type="password"
              name="password"
              autoComplete={registering ? "new-password" : "current-password"}
              required
              minLength={8}
            />
          </label>
          {registering ? (
            <label className="field">
              <span>Name</span>
              <input type="text" name="name" autoComplete="name" />
            </label>
          ) : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {registering ? "Create account" : "Sign in"}
            </button>
            <button type="button" className="link" onClick={() => setRegistering(!registering)}>
              {registering ? "I have an account" : "Create an account instead"}
            </button>
          </div>
          <p className="error" role="alert">
            {error}
          </p>
        </form>
      </section>
    </main>
  )
}
