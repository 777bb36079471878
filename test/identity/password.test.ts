/**
 * Password hashes (actors/identity/Password.ts): scrypt with the cost N that `PASSWORD_SCRYPT_N` sets, recorded in
 * each hash, so a hash made under one setting verifies under another (the suite runs at a lower N than production).
 */
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { hashPassword, verifyPassword } from "../../actors/identity/Password.ts"

const configured = process.env.PASSWORD_SCRYPT_N
afterEach(() => {
  if (configured === undefined) delete process.env.PASSWORD_SCRYPT_N
  else process.env.PASSWORD_SCRYPT_N = configured
})

const hashAt = (n: string | undefined) => {
  if (n === undefined) delete process.env.PASSWORD_SCRYPT_N
  else process.env.PASSWORD_SCRYPT_N = n
  return Effect.runPromise(hashPassword("correct horse battery staple"))
}

describe("password hashes", () => {
  it("use N = 16,384 unless PASSWORD_SCRYPT_N names a power of two from 1,024", async () => {
    expect((await hashAt(undefined)).split("$").slice(0, 4)).toEqual(["scrypt", "16384", "8", "1"])
    expect((await hashAt("2048")).split("$")[1]).toBe("2048")
    for (const ignored of ["512", "3000", "abc", ""]) expect((await hashAt(ignored)).split("$")[1]).toBe("16384")
  })

  it("verify under any setting, since each hash records its own cost", async () => {
    const strong = await hashAt(undefined)
    const light = await hashAt("1024")
    for (const stored of [strong, light]) {
      expect(await Effect.runPromise(verifyPassword("correct horse battery staple", stored))).toBe(true)
      expect(await Effect.runPromise(verifyPassword("correct horse battery stapler", stored))).toBe(false)
    }
  })
})
