/** Where the OAuth callback page returns to: the page that started the flow (same tab, so sessionStorage). */
const KEY = "atrium:oauth-return"

export const rememberOAuthReturn = (path: string) => {
  try {
    sessionStorage.setItem(KEY, path)
  } catch {
    // Without storage the callback returns to the workspaces page.
  }
}

export const takeOAuthReturn = (): string => {
  try {
    const path = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    return path?.startsWith("/") ? path : "/"
  } catch {
    return "/"
  }
}
