/** The signed-in person's name and "Sign out" (ends the session on the server too). */
import { useNavigate } from "react-router"
import { client } from "../api/client.ts"
import { currentSession, setSession, useSession } from "../api/session.ts"

export const AccountMenu = () => {
  const session = useSession()
  const navigate = useNavigate()
  if (session === undefined) return null
  const signOut = async () => {
    if (currentSession() !== undefined) await client.POST("/pm/v1/auth/logout").catch(() => undefined)
    setSession(undefined)
    navigate("/sign-in", { replace: true })
  }
  return (
    <div className="account">
      <span className="who">{session.user.name}</span>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  )
}
