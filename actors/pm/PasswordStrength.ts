/**
 * How guessable a password is, scored 0–4 from what attackers try first:
 * common passwords, the user's own name or e-mail, keyboard and alphabet runs,
 * repetition, then length and character variety. Not a full zxcvbn, but it
 * refuses the passwords that fall to a dictionary in seconds.
 */

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 200
/** Scores below this are refused when a password is changed through the Users API. */
export const PASSWORD_MIN_SCORE = 2

const common = new Set([
  "password",
  "password1",
  "password123",
  "passw0rd",
  "p@ssw0rd",
  "123456",
  "1234567",
  "12345678",
  "123456789",
  "1234567890",
  "qwerty",
  "qwerty123",
  "qwertyuiop",
  "azerty",
  "111111",
  "000000",
  "abc123",
  "abcdef",
  "iloveyou",
  "letmein",
  "welcome",
  "welcome1",
  "monkey",
  "dragon",
  "master",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "shadow",
  "superman",
  "trustno1",
  "admin",
  "admin123",
  "administrator",
  "login",
  "starwars",
  "hello123",
  "freedom",
  "whatever",
  "qazwsx",
  "1q2w3e4r",
  "zaq12wsx",
  "secret",
  "changeme",
  "default",
  "summer2024",
  "winter2024",
  "spring2025",
  "autumn2025",
  "correcthorsebatterystaple"
])

const sequences = ["abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm", "01234567890", "azertyuiop"]

const hasRun = (value: string, length = 4) => {
  const lower = value.toLowerCase()
  for (const sequence of sequences) {
    for (const text of [sequence, [...sequence].reverse().join("")]) {
      for (let i = 0; i + length <= text.length; i++) if (lower.includes(text.slice(i, i + length))) return true
    }
  }
  return false
}

export interface StrengthReport {
  readonly score: 0 | 1 | 2 | 3 | 4
  readonly acceptable: boolean
  readonly warnings: ReadonlyArray<string>
  readonly suggestions: ReadonlyArray<string>
}

export const assessPassword = (password: string, context: { readonly email?: string; readonly name?: string } = {}): StrengthReport => {
  const warnings: Array<string> = []
  const suggestions: Array<string> = []
  const lower = password.toLowerCase()
  const stripped = lower.replace(/[^a-z0-9]/g, "")
  let score = 0
  if (password.length < PASSWORD_MIN_LENGTH) warnings.push(`Shorter than ${PASSWORD_MIN_LENGTH} characters`)
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length
  // Length dominates: long passphrases are strong even in one character class.
  score = password.length >= 20 ? 4 : password.length >= 14 ? 3 : password.length >= 10 ? 2 : password.length >= PASSWORD_MIN_LENGTH ? 1 : 0
  if (classes >= 3 && password.length >= PASSWORD_MIN_LENGTH) score += 1
  if (common.has(lower) || common.has(stripped) || common.has(lower.replace(/\d+$/, ""))) {
    warnings.push("This is one of the most common passwords")
    score = 0
  }
  const personal = [context.email?.split("@")[0], ...(context.name?.split(/\s+/) ?? [])]
    .map((part) => part?.toLowerCase().trim())
    .filter((part): part is string => part !== undefined && part.length >= 3)
  if (personal.some((part) => lower.includes(part))) {
    warnings.push("Contains your name or e-mail address")
    score = Math.min(score, 1)
  }
  if (/(.)\1{3,}/.test(password)) {
    warnings.push("Repeats a character many times")
    score -= 1
  }
  if (hasRun(password)) {
    warnings.push("Contains a keyboard or alphabet sequence")
    score -= 1
  }
  if (new Set(password).size <= 3 && password.length > 0) {
    warnings.push("Uses only a few different characters")
    score = Math.min(score, 1)
  }
  const bounded = Math.max(0, Math.min(4, score)) as StrengthReport["score"]
  if (bounded < 3) suggestions.push("Use a longer passphrase of several unrelated words")
  if (classes < 3 && bounded < 4) suggestions.push("Mix upper and lower case, digits and symbols")
  return {
    score: bounded,
    acceptable: bounded >= PASSWORD_MIN_SCORE && password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH,
    warnings,
    suggestions
  }
}
