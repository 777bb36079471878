/** Sign in (or create an account) with the pm Authentication operations. */
import { ApiError, api, type Session, setSession } from "./api.ts"
import { announce, h, mount } from "./dom.ts"

const field = (label: string, input: HTMLInputElement) => h("label", { className: "field" }, h("span", {}, label), input)

export const showSignIn = (main: HTMLElement, signedIn: () => void) => {
  const email = h("input", { type: "email", name: "email", autocomplete: "username", required: true })
  const password = h("input", { type: "password", name: "password", autocomplete: "current-password", required: true, minlength: 8 })
  const name = h("input", { type: "text", name: "name", autocomplete: "name" })
  const error = h("p", { className: "error", role: "alert" })
  let registering = false
  const nameField = field("Name", name)
  nameField.hidden = true

  const submit = async (event: Event) => {
    event.preventDefault()
    error.textContent = ""
    try {
      if (registering) {
        await api("POST", "/pm/v1/auth/register", { email: email.value, password: password.value, name: name.value || email.value })
      }
      const login = await api<Session & { user: Session["user"] }>("POST", "/pm/v1/auth/login", {
        email: email.value,
        password: password.value
      })
      setSession({ accessToken: login.accessToken, refreshToken: login.refreshToken, user: login.user })
      announce(`Signed in as ${login.user.name}`)
      signedIn()
    } catch (cause) {
      error.textContent = cause instanceof ApiError ? cause.message : "Cannot reach the server"
    }
  }
  const toggle = h("button", { type: "button", className: "link" }, "Create an account instead")
  const submitButton = h("button", { type: "submit" }, "Sign in")
  toggle.addEventListener("click", () => {
    registering = !registering
    nameField.hidden = !registering
    submitButton.textContent = registering ? "Create account" : "Sign in"
    toggle.textContent = registering ? "I have an account" : "Create an account instead"
  })
  mount(
    main,
    h(
      "section",
      { className: "card narrow", "aria-labelledby": "signin-title" },
      h("h1", { id: "signin-title" }, "Sign in to Atrium"),
      h("form", { onsubmit: submit }, field("Email", email), field("Password", password), nameField, submitButton, toggle, error)
    )
  )
  email.focus()
}
