/** Hostile values for the fuzz suites, as fast-check arbitraries and as fixed samples. */
import { fc } from "@fast-check/vitest"
import { textProblem } from "../../../actors/StorableText.ts"

/** Text a store must keep byte-identical. */
export const storableSamples: ReadonlyArray<string> = [
  "שלום עולם مرحبا بالعالم", // RTL
  "\u202Eevil\u202C mixed \u200F direction",
  "emoji 👩‍👩‍👧‍👦 🏳️‍🌈 🇺🇦 ✨",
  "Robert'); DROP TABLE tasks;--",
  "<script>alert(1)</script><img src=x onerror=alert(2)>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: template-injection text is the point
  "{{constructor.constructor('return 1')()}} ${7*7} %s %n",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "\\u0000 is not a NUL, nor is \\ud800",
  "tab\there, newline\nthere",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 astral 𠜎𠜱"
]

/** Text nothing may store: refused with 400 naming the field. */
export const unstorableSamples: ReadonlyArray<string> = [
  "nul\u0000byte",
  "lone \ud800 high",
  "lone \udc00 low",
  "\u0000",
  "reversed \udc00\ud800 pair"
]

export const longText = (length: number) =>
  "ab\u05d0\u{1F600}"
    .repeat(Math.ceil(length / 5))
    .slice(0, length)
    .replace(/[\ud800-\udbff]$/, "x")

export const extremeNumbers: ReadonlyArray<number> = [
  -1,
  0,
  -0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  0.1 + 0.2,
  1.5
]

/** A value nested `depth` levels deep (arrays and objects alternating). */
export const deeplyNested = (depth: number): unknown => {
  let value: unknown = "bottom"
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { nested: value }
  return value
}

const hostileString = fc.oneof(
  fc.constantFrom(...storableSamples, ...unstorableSamples),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udfff", "a", "\u05d0", "\u{1F600}", "'", '"', "\\", "<"), maxLength: 12 }),
  fc.constantFrom(100_000, 5_000, 257).map(longText)
)

/** Any hostile JSON value: text, extreme numbers, deep nesting, big arrays, odd objects. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...extremeNumbers), fc.double(), fc.integer()) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.constantFrom(20, 200).map(deeplyNested) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Array.from({ length: 1000 }, (_, index) => index),
      JSON.parse('{"__proto__": {"polluted": true}}'),
      { constructor: "x", "": "" }
    )
  }
)

/** Whether the value (anywhere inside) holds text the string rule refuses. */
export const holdsUnstorable = (value: unknown): boolean => {
  if (typeof value === "string") return textProblem(value) !== undefined
  if (Array.isArray(value)) return value.some(holdsUnstorable)
  if (typeof value === "object" && value !== null)
    return Object.entries(value).some(([key, item]) => textProblem(key) !== undefined || holdsUnstorable(item))
  return false
}
