import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One worker per core; a worker runs file after file without reloading the app's modules
    // (test/support/setup.ts gives each file the worker's starting environment back).
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
    globalSetup: ["test/support/globalSetup.ts"],
    setupFiles: ["test/support/setup.ts"],
    reporters: ["default", "./test/support/slowestFiles.ts"],
    // Every in-process ask goes through its message's codec, as over NATS: a value off its schema fails the test.
    // Password hashes at scrypt N = 1,024 instead of 16,384 (actors/identity/Password.ts): the suite signs up and
    // signs in thousands of users, and the cost is a setting, not behaviour.
    env: { ATRIUM_CHECK_PROTOCOLS: "1", PASSWORD_SCRYPT_N: "1024" }
  }
})
