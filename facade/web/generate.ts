/** `npm run web:types`: writes the web app's API types (also run by postinstall and by the web build). */
import { writeApiTypes } from "./ApiTypes.ts"

const written = await writeApiTypes()
console.log(written.length === 0 ? "web API types: up to date" : `web API types written: ${written.join(", ")}`)
