/** Who is calling: a user with a session (JWT) or an API key provisioned for one workspace. Identity owns it; the facade authenticates into it. */
export interface UserPrincipal {
  readonly kind: "user"
  readonly userId: string
  readonly email: string
  readonly name: string
  /** The refresh-token family (session) the access token was minted in. */
  readonly sessionId: string
}

export interface ApiKeyPrincipal {
  readonly kind: "apiKey"
  readonly keyId: string
  /** The user who created the key; the key acts with that user's membership. */
  readonly userId: string
  readonly workspaceId: string
  readonly scopes: ReadonlyArray<string>
}

export type Principal = UserPrincipal | ApiKeyPrincipal
